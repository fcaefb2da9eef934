from collections.abc import Mapping, Sequence
from urllib.request import OpenerDirector

class URLFetcher(OpenerDirector):
    def __init__(
        self,
        timeout: float = 10,
        ssl_context: object = None,
        http_headers: Mapping[str, str] | None = None,
        allowed_protocols: Sequence[str] | None = None,
        allow_redirects: bool = True,
        fail_on_errors: bool = False,
        **kwargs: object,
    ) -> None: ...
    def fetch(self, url: str, headers: object = None) -> URLFetcherResponse: ...

class URLFetcherResponse:
    def __init__(
        self,
        url: str,
        body: bytes | None = None,
        headers: Mapping[str, str] | None = None,
        status: int = 200,
        **kwargs: object,
    ) -> None: ...
