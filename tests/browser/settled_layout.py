"""Boxes of several elements read together once the page's layout has settled.

Two ``bounding_box()`` calls are two moments: between them the page may finish loading, swap in
its font or scroll itself to the score pad (static/js/deal-form.js), and two elements that stand
level at every moment are then read 16 px apart. ``settled_boxes`` waits for the load event,
the fonts and a layout that stays the same across two animation frames, then reads every box in
one script, from one layout.
"""

from typing import TypedDict

from playwright.sync_api import Locator, Page

SETTLED_FRAMES_AT_MOST = 120
"""How many pairs of frames to wait for the boxes to stop moving (two seconds at 60 frames a
second); after that they are read as they are: an endless animation would never settle."""

_SETTLED_BOXES = """
async ([elements, settledFramesAtMost]) => {
  await document.fonts.ready;
  const read = () => elements.map((element) => {
    const rect = element.getBoundingClientRect();
    return { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
  });
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  let before = JSON.stringify(read());
  for (let tries = 0; tries < settledFramesAtMost; tries += 1) {
    await frame();
    await frame();
    const now = JSON.stringify(read());
    if (now === before) {
      break;
    }
    before = now;
  }
  return read();
}
"""


class Box(TypedDict):
    x: float
    y: float
    width: float
    height: float


def settled_boxes(page: Page, *locators: Locator) -> list[Box]:
    """The box of each locator's element (in the viewport, as ``bounding_box()`` gives it), all
    read from the same layout once it has settled."""
    page.wait_for_load_state("load")
    elements = []
    for locator in locators:
        handle = locator.element_handle()
        assert handle is not None, locator
        elements.append(handle)
    boxes: list[Box] = page.evaluate(_SETTLED_BOXES, [elements, SETTLED_FRAMES_AT_MOST])
    for handle in elements:
        handle.dispose()
    return boxes
