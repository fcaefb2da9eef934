"""Share links: house rules packed into a URL-safe token, and read back strictly."""

from __future__ import annotations

import base64
import binascii
import json
import re

from .house_rules import HouseRules
from .messages import N_, Term
from .params import VariantRejected, problem_at
from .variant_json import house_rules_from_json, parse_json_text

MAX_LINK_CHARS = 4096


def link_token(rules: HouseRules) -> str:
    """The rules packed into a URL-safe token, for a share link."""
    text = json.dumps(rules.to_json(), separators=(",", ":"), ensure_ascii=False)
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def rules_from_link(token: str) -> HouseRules:
    """The rules a share link carries; VariantRejected for a damaged or hostile link."""
    what = Term(N_("The link"))
    if len(token) > MAX_LINK_CHARS or not re.fullmatch(r"[A-Za-z0-9_-]*", token):
        raise VariantRejected([problem_at(None, N_("{what} is damaged."), what=what)])
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    except (binascii.Error, ValueError):
        raise VariantRejected([problem_at(None, N_("{what} is damaged."), what=what)]) from None
    return house_rules_from_json(parse_json_text(raw, what))
