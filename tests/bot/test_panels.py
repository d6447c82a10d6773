"""The panel registry: one panel per player and table, replaced, expired and dropped without races."""

from types import SimpleNamespace

from bot.panels import MARGIN, TOKEN_LIFETIME, Panels


def test_a_new_panel_replaces_the_old_and_only_the_current_one_is_dropped():
    now = [1000.0]
    panels = Panels(clock=lambda: now[0])
    first = SimpleNamespace(name="first")
    second = SimpleNamespace(name="second")
    p1, old = panels.set(1, 7, first, seat=0)
    assert old is None
    p2, old = panels.set(1, 7, second, seat=0)
    assert old is p1  # the caller removes the previous panel
    panels.drop(1, 7, p1)  # a late failure on the old panel must not forget the new one
    assert panels.get(1, 7) is p2
    p2.message_id = 55
    _, old = panels.set(1, 7, SimpleNamespace(), seat=0, message_id=55)
    assert old is None  # a click on the same panel renews its token and replaces nothing
    now[0] += TOKEN_LIFETIME - MARGIN
    assert panels.live(1) == [] and panels.get(1, 7) is None and len(panels) == 0
