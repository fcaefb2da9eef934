from wtforms import FileField as _FileField
from wtforms.validators import DataRequired

class FileField(_FileField):
    """A file input whose data is the uploaded ``FileStorage``, or None when nothing was sent."""

class FileRequired(DataRequired):
    """Fails when no file was uploaded."""
