"""/learn on the playground's page, as a newcomer meets it: the lesson only they see, what the game is about on
its first screen, a step by the suggested (green) button, and leaving."""

from playwright.sync_api import expect


def test_a_lesson_on_the_page_starts_with_the_goal_steps_and_can_be_left(page):
    page.slash("learn", game="GEONEO")
    lesson = page.messages.filter(has_text="Lesson: GEONEO").last
    expect(lesson).to_contain_text("Goal: Score the most points.")
    expect(lesson).to_contain_text("Only you can see this")
    expect(lesson.locator("img")).to_have_count(2)  # the board and the learner's hand
    page.screenshot("first")
    page.button(lesson, "✓").click()
    lesson = page.messages.filter(has_text="Lesson: GEONEO").last
    expect(lesson).not_to_contain_text("Goal:")
    expect(lesson).to_contain_text("Why:")
    page.button(lesson, "Leave lesson").click()
    expect(page.messages.filter(has_text="You left the lesson").last).to_be_visible()
