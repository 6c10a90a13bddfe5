"""The same module on a scroll container (Public/container.html), with a nested scroller."""


def box_point(tab, selector, dy=20):
    r = tab.page.eval_on_selector(selector, "e => { const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y] }")
    return r[0], r[1] + dy


def test_a_pull_in_the_container_refreshes_it(start_server, phone):
    tab = phone(start_server(seed="0"))
    tab.page.goto(tab.server.url + "/container.html")
    tab.page.wait_for_selector("#rows li")
    x, y = box_point(tab, "#rows", 10)
    tab.touch_pull(220, x=x, y=y, release=False)
    tab.page.wait_for_function("() => document.querySelector('.ptr').dataset.state === 'armed'")
    tab.touch("touchEnd")
    tab.page.wait_for_function("() => document.querySelector('.ptr').dataset.state === 'refreshing'")
    tab.page.wait_for_function("() => document.querySelector('.ptr').dataset.state === 'idle'")
    assert tab.page.text_content("#count") == "Refreshed 1 times"
    assert tab.page.text_content("[role=status]") == "Refreshed 1 times"


def test_a_pull_inside_a_nested_scroller_that_is_not_at_its_top_does_not_arm(start_server, phone):
    tab = phone(start_server(seed="0"))
    tab.page.goto(tab.server.url + "/container.html")
    tab.page.wait_for_selector("#inner p")
    tab.record()
    tab.page.eval_on_selector("#inner", "e => { e.scrollTop = 200 }")
    x, y = box_point(tab, "#inner", 10)
    tab.handled(tab.touch_pull, 220, x=x, y=y)
    assert tab.page.eval_on_selector(".ptr", "p => p.dataset.state") == "idle"
    assert tab.page.text_content("#count") == "Refreshed 0 times"
    assert tab.page.eval_on_selector("#inner", "e => e.scrollTop") < 200  # the finger scrolled the inner box


def test_a_container_scrolled_down_does_not_pull(start_server, phone):
    tab = phone(start_server(seed="0"))
    tab.page.goto(tab.server.url + "/container.html")
    tab.page.wait_for_selector("#rows li")
    tab.record()
    # Scrolled, and the scroll event handled (the module's listener comes first): the box is not at its top.
    tab.page.eval_on_selector("#box", "e => new Promise(r => { e.addEventListener('scroll', r, { once: true }); e.scrollTop = 300; })")
    x, y = box_point(tab, "#box", 200)
    tab.handled(tab.touch_pull, 220, x=x, y=y)
    assert tab.page.eval_on_selector(".ptr", "p => p.dataset.state") == "idle"
    assert tab.page.text_content("#count") == "Refreshed 0 times"
