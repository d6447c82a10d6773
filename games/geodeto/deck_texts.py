"""The words of the goal deck (data/deck.json) as messages: a card's name, capital or location and geo-tweet are
translated when shown (``card_text``); marked here so that the catalogs' extraction sees them. A test
(tests/games/test_geodeto_languages.py) keeps this table and the data file in step."""

from __future__ import annotations

from i18n import N_, Text, _

CARD_TEXTS: dict[str, dict[str, str]] = {
    "italy": {
        "name": N_("Italy"),
        "capital": N_("Rome"),
        "tweet": N_("Italian physicist Alessandro Volta built the first electric battery, the voltaic pile, in 1800; the volt is named after him."),
    },
    "czech-republic": {
        "name": N_("Czech Republic"),
        "capital": N_("Prague"),
        "tweet": N_("The word 'robot' is Czech: Karel Čapek's play R.U.R. (1920) made it world famous, and he credited his brother Josef with coining it."),
    },
    "great-britain": {
        "name": N_("Great Britain"),
        "capital": N_("London"),
        "tweet": N_("London's Underground, opened in 1863, is the oldest underground railway in the world."),
    },
    "turkey": {
        "name": N_("Turkey"),
        "capital": N_("Ankara"),
        "tweet": N_("Istanbul, Turkey's largest city, lies on two continents, split by the Bosphorus strait, yet the capital is Ankara."),
    },
    "russia": {
        "name": N_("Russia"),
        "capital": N_("Moscow"),
        "tweet": N_("Russia is the largest country on Earth and spans 11 time zones, from Kaliningrad to Kamchatka."),
    },
    "eiffel-tower": {
        "name": N_("Eiffel Tower"),
        "location": N_("France"),
        "tweet": N_("Built for the 1889 World's Fair, the Eiffel Tower (now about 330 m) was the world's tallest structure until 1930."),
    },
    "stonehenge": {
        "name": N_("Stonehenge"),
        "location": N_("United Kingdom"),
        "tweet": N_("Stonehenge was built in stages from about 3000 BC; its smaller bluestones were brought from the Preseli Hills in Wales."),
    },
    "colosseum": {
        "name": N_("Colosseum"),
        "location": N_("Italy"),
        "tweet": N_("Rome's Colosseum, opened in AD 80, is the largest amphitheatre ever built and could seat more than 50,000 spectators."),
    },
    "china": {
        "name": N_("China"),
        "capital": N_("Beijing"),
        "tweet": N_("Papermaking, the compass, gunpowder and printing are celebrated as the Four Great Inventions of ancient China."),
    },
    "india": {
        "name": N_("India"),
        "capital": N_("New Delhi"),
        "tweet": N_("Cricket is by far India's most popular sport; India won the men's Cricket World Cup in 1983 and 2011."),
    },
    "japan": {
        "name": N_("Japan"),
        "capital": N_("Tokyo"),
        "tweet": N_("Japan's Shinkansen, opened between Tokyo and Osaka in 1964, was the world's first high-speed railway."),
    },
    "nepal": {
        "name": N_("Nepal"),
        "capital": N_("Kathmandu"),
        "tweet": N_("Nepal's flag, two stacked pennants, is the only national flag in the world that is not a rectangle."),
    },
    "great-wall-of-china": {
        "name": N_("Great Wall of China"),
        "location": N_("China"),
        "tweet": N_("With all its branches the Great Wall of China is over 21,000 km long; contrary to myth, it cannot be seen from the Moon."),
    },
    "mt-everest": {
        "name": N_("Mt. Everest"),
        "location": N_("Nepal / China"),
        "tweet": N_("At 8,849 m, Mt. Everest is the highest mountain on Earth; Edmund Hillary and Tenzing Norgay first reached its top in 1953."),
    },
    "taj-mahal": {
        "name": N_("Taj Mahal"),
        "location": N_("India"),
        "tweet": N_("Mughal emperor Shah Jahan built the white-marble Taj Mahal in Agra as a tomb for his beloved wife Mumtaz Mahal."),
    },
    "tanzania": {
        "name": N_("Tanzania"),
        "capital": N_("Dodoma"),
        "tweet": N_("Tanzania was born in 1964 when Tanganyika and Zanzibar united; its name blends the two."),
    },
    "egypt": {
        "name": N_("Egypt"),
        "capital": N_("Cairo"),
        "tweet": N_("The Suez Canal, opened in 1869, links the Mediterranean and the Red Sea; Egypt's Sinai Peninsula lies in Asia."),
    },
    "south-africa": {
        "name": N_("South Africa"),
        "capital": N_("Pretoria"),
        "tweet": N_("South Africa has three capitals: Pretoria (executive), Cape Town (legislative) and Bloemfontein (judicial)."),
    },
    "nigeria": {
        "name": N_("Nigeria"),
        "capital": N_("Abuja"),
        "tweet": N_("Nigeria is Africa's most populous country; Abuja replaced Lagos as its capital in 1991."),
    },
    "kenya": {
        "name": N_("Kenya"),
        "capital": N_("Nairobi"),
        "tweet": N_("The equator crosses Kenya, which is named after Mount Kenya, Africa's second-highest mountain (5,199 m)."),
    },
    "victoria-falls": {
        "name": N_("Victoria Falls"),
        "location": N_("Zambia / Zimbabwe"),
        "tweet": N_("Victoria Falls on the Zambezi forms the largest sheet of falling water on Earth; its local name means 'the smoke that thunders'."),
    },
    "pyramids-of-giza": {
        "name": N_("Pyramids of Giza"),
        "location": N_("Egypt"),
        "tweet": N_("The Great Pyramid of Giza, built for pharaoh Khufu around 2560 BC, was the tallest human-made structure for over 3,800 years."),
    },
    "mt-kilimanjaro": {
        "name": N_("Mt. Kilimanjaro"),
        "location": N_("Tanzania"),
        "tweet": N_("Kilimanjaro in Tanzania, 5,895 m, is the highest mountain in Africa and the highest free-standing mountain in the world."),
    },
    "usa": {
        "name": N_("USA"),
        "capital": N_("Washington, D.C."),
        "tweet": N_("On 17 December 1903 the Wright brothers made the first powered, controlled aeroplane flight, near Kitty Hawk, North Carolina."),
    },
    "canada": {
        "name": N_("Canada"),
        "capital": N_("Ottawa"),
        "tweet": N_("Modern ice hockey took shape in Canada: the first recorded indoor game was played in Montreal in 1875."),
    },
    "brazil": {
        "name": N_("Brazil"),
        "capital": N_("Brasília"),
        "tweet": N_("Brazil has won the men's FIFA World Cup five times (1958, 1962, 1970, 1994, 2002), more than any other nation."),
    },
    "mexico": {
        "name": N_("Mexico"),
        "capital": N_("Mexico City"),
        "tweet": N_("Mexico has more Spanish speakers than any other country, and maize (corn) was first domesticated there about 9,000 years ago."),
    },
    "argentina": {
        "name": N_("Argentina"),
        "capital": N_("Buenos Aires"),
        "tweet": N_("Aconcagua in Argentina, 6,961 m, is the highest mountain outside Asia and the highest in the Americas."),
    },
    "statue-of-liberty": {
        "name": N_("Statue of Liberty"),
        "location": N_("USA"),
        "tweet": N_("The Statue of Liberty, a gift from France dedicated in 1886, has an iron frame by Gustave Eiffel; its copper skin turned green."),
    },
    "machu-picchu": {
        "name": N_("Machu Picchu"),
        "location": N_("Peru"),
        "tweet": N_("Machu Picchu, an Inca citadel high in Peru's Andes, was built in the 15th century and made world famous by Hiram Bingham in 1911."),
    },
    "christ-the-redeemer": {
        "name": N_("Christ the Redeemer"),
        "location": N_("Brazil"),
        "tweet": N_("Christ the Redeemer, finished in 1931, stands 30 m tall on an 8 m pedestal atop Corcovado mountain above Rio de Janeiro."),
    },
    "new-zealand": {
        "name": N_("New Zealand"),
        "capital": N_("Wellington"),
        "tweet": N_("New Zealand's rugby team, the All Blacks, perform the haka before matches; they won the Rugby World Cup in 1987, 2011 and 2015."),
    },
    "australia": {
        "name": N_("Australia"),
        "capital": N_("Canberra"),
        "tweet": N_("Canberra was purpose-built as Australia's capital, a compromise between the rival cities of Sydney and Melbourne."),
    },
    "papua-new-guinea": {
        "name": N_("Papua New Guinea"),
        "capital": N_("Port Moresby"),
        "tweet": N_("More than 800 languages are spoken in Papua New Guinea, more than in any other country in the world."),
    },
    "fiji": {
        "name": N_("Fiji"),
        "capital": N_("Suva"),
        "tweet": N_("The 180th meridian crosses Fiji's island of Taveuni, but the International Date Line bends so all of Fiji keeps one date."),
    },
    "mariana-trench": {
        "name": N_("Mariana Trench"),
        "location": N_("Pacific Ocean"),
        "tweet": N_("The Challenger Deep in the Mariana Trench is the deepest known point of the ocean, nearly 11,000 m below sea level."),
    },
    "sydney-opera-house": {
        "name": N_("Sydney Opera House"),
        "location": N_("Australia"),
        "tweet": N_("The Sydney Opera House, designed by Danish architect Jørn Utzon, opened in 1973 and became a World Heritage Site in 2007."),
    },
    "great-barrier-reef": {
        "name": N_("Great Barrier Reef"),
        "location": N_("Australia (Coral Sea)"),
        "tweet": N_("The Great Barrier Reef off Queensland, Australia, is the world's largest coral reef system, stretching over 2,300 km."),
    },
    "easter-island-moai": {
        "name": N_("Easter Island Moai"),
        "location": N_("Chile (Easter Island)"),
        "tweet": N_("The Rapa Nui people of remote Easter Island carved more than 900 moai, giant stone figures, mostly between 1250 and 1500."),
    },
    "mcmurdo-station": {
        "name": N_("McMurdo Station"),
        "location": N_("Antarctica (USA)"),
        "tweet": N_("McMurdo Station on Ross Island, run by the USA since 1956, is Antarctica's largest base, with around 1,000 people in summer."),
    },
    "amundsen-scott-station": {
        "name": N_("Amundsen-Scott Station"),
        "location": N_("Antarctica (USA)"),
        "tweet": N_("This US station sits at the geographic South Pole; Roald Amundsen got there first in December 1911, Robert Scott in January 1912."),
    },
    "vostok-station": {
        "name": N_("Vostok Station"),
        "location": N_("Antarctica (Russia)"),
        "tweet": N_("Russia's Vostok Station recorded the lowest air temperature ever measured on Earth: -89.2 °C on 21 July 1983."),
    },
    "concordia-station": {
        "name": N_("Concordia Station"),
        "location": N_("Antarctica (France / Italy)"),
        "tweet": N_("French-Italian Concordia Station lies 3,233 m up on the Antarctic Plateau; the European Space Agency studies isolation there."),
    },
    "halley-research-station": {
        "name": N_("Halley Research Station"),
        "location": N_("Antarctica (United Kingdom)"),
        "tweet": N_("Scientists of the British Antarctic Survey discovered the ozone hole in 1985 using measurements made at Halley."),
    },
    "princess-elisabeth-station": {
        "name": N_("Princess Elisabeth Station"),
        "location": N_("Antarctica (Belgium)"),
        "tweet": N_("Belgium's Princess Elisabeth Station, opened in 2009, was the first zero-emission polar research station, powered by wind and sun."),
    },
    "mt-vinson": {
        "name": N_("Mt. Vinson"),
        "location": N_("Antarctica (Ellsworth Mountains)"),
        "tweet": N_("Mt. Vinson, 4,892 m, is the highest mountain in Antarctica; an American expedition first climbed it in 1966."),
    },
    "lambert-glacier": {
        "name": N_("Lambert Glacier"),
        "location": N_("Antarctica (East Antarctica)"),
        "tweet": N_("Lambert Glacier in East Antarctica is the largest glacier in the world, flowing more than 400 km to the Amery Ice Shelf."),
    },
}

SHORT_NAMES: dict[str, str] = {
    "mcmurdo-station": N_("McMurdo"),
    "amundsen-scott-station": N_("Amundsen-Scott"),
    "vostok-station": N_("Vostok"),
    "concordia-station": N_("Concordia"),
    "halley-research-station": N_("Halley Research"),
    "princess-elisabeth-station": N_("Princess Elisabeth"),
}
"""A research station's name without " Station" ("Amundsen-Scott"), where room is short."""


def card_text(card: str, field: str) -> Text | None:
    """A card's ``field`` ("name", "capital", "location", "tweet") as a message, None when it has none."""
    english = CARD_TEXTS.get(card, {}).get(field)
    return _(english) if english else None


def short_name(card: str) -> Text | None:
    english = SHORT_NAMES.get(card)
    return _(english) if english else None
