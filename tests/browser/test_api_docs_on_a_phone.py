"""The API's docs page on a phone: Swagger UI, served by the app, under the site's CSP."""

from pathlib import Path

from playwright.sync_api import Page, expect


def test_the_api_docs_page_lists_the_calls_on_a_phone_without_breaking_the_csp(
    page: Page, migrated_server: str, artifacts_dir: Path
) -> None:
    refused: list[str] = []
    page.on(
        "console",
        lambda message: refused.append(message.text) if message.type == "error" else None,
    )
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', e => "
        "console.error('CSP refused ' + e.violatedDirective + ' ' + e.blockedURI));"
    )
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))

    page.goto(migrated_server + "/")
    page.get_by_role("link", name="API", exact=True).click()
    expect(page).to_have_url(migrated_server + "/api/")
    expect(page.get_by_role("heading", name="API", exact=True)).to_be_visible()
    score = page.locator(".opblock-summary-path[data-path='/score']")
    expect(score).to_be_visible()

    score.click()
    expect(page.locator(".opblock.is-open")).to_contain_text("Request body")
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    page.screenshot(path=artifacts_dir / "api-docs-phone.png", full_page=False)
    assert overflow <= 0
    assert refused == []
    assert [url for url in requested if not url.startswith(migrated_server)] == []
