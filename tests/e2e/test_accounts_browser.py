from playwright.sync_api import Page, expect


def test_sign_up_then_log_in_through_the_real_pages(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}/accounts/signup/")
    page.get_by_label("Username:").fill("carol")
    page.get_by_label("Email:").fill("carol@example.com")
    page.get_by_label("Password:", exact=True).fill("chromium-secret-77")
    page.get_by_label("Password (again):").fill("chromium-secret-77")
    page.get_by_role("button", name="Sign Up").click()
    expect(page.get_by_role("heading", name="Lobby")).to_be_visible()

    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("navigation").get_by_role("link", name="Log in")).to_be_visible()

    page.goto(f"{base_url}/accounts/login/")
    page.get_by_label("Login:").fill("carol")
    page.get_by_label("Password:").fill("chromium-secret-77")
    page.get_by_role("button", name="Sign In").click()
    expect(page.get_by_role("heading", name="Lobby")).to_be_visible()

    page.get_by_role("link", name="carol").click()
    expect(page.get_by_role("heading", name="carol")).to_be_visible()
    expect(page.get_by_text("carol@example.com")).to_be_visible()


def test_the_pages_fit_a_phone_screen(page: Page, base_url: str) -> None:
    page.set_viewport_size({"width": 375, "height": 740})
    for path in ["/", "/accounts/login/", "/accounts/signup/"]:
        page.goto(f"{base_url}{path}")
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{path} scrolls sideways by {overflow}px on a phone"
