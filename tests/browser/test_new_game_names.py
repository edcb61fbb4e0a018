"""The new-game page in a real browser: as names are typed, the first dealer's choices
name the seats' players, and a dealer tapped meanwhile stays chosen."""
from __future__ import annotations

from playwright.sync_api import Page, expect


def test_the_dealer_choices_follow_the_names_typed(page: Page, member_of_club):
    base, _cookie = member_of_club()
    page.goto(f"{base}/games/new")
    dealer_3 = page.get_by_role("radio", name="Seat 3 deals first", exact=True)
    page.get_by_role("combobox", name="Seat 1", exact=True).fill("Ann")
    page.locator("label", has=dealer_3).click()  # tapped before the preview answers
    page.get_by_role("combobox", name="Seat 3", exact=True).fill("Cid")
    expect(page.locator("#dealer-name-3")).to_have_text("Cid")
    expect(page.locator("#dealer-name-1")).to_have_text("Ann")
    expect(page.locator("#teams-preview li").first).to_have_text("A: Ann & seat 4")
    expect(dealer_3).to_be_checked()
    # Read out as the radio's description, its name staying "Seat 3 deals first".
    expect(dealer_3).to_have_accessible_description("Cid")
    assert page.locator("#teams-preview").count() == 1  # swapped in place, not nested
    page.get_by_role("combobox", name="Seat 3", exact=True).fill("Cy")
    expect(page.locator("#dealer-name-3")).to_have_text("Cy")
    expect(dealer_3).to_be_checked()
