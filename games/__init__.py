"""Pure rule engines. Importing this package registers every game."""

from games.core import Engine, all_engines, get_engine  # noqa: F401
from games.geek_out import rules as _geek_out  # noqa: F401
from games.geodeto import rules as _geodeto  # noqa: F401
from games.geomancy import rules as _geomancy  # noqa: F401
from games.geoneo import rules as _geoneo  # noqa: F401
from games.globe_twister import rules as _globe_twister  # noqa: F401
