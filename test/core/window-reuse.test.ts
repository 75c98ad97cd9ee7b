import t from 'tap'
import { mayReset, resetClean, type WindowState, type WindowUseFacts } from '../../src/core/window-reuse.js'

const clean: WindowUseFacts = { sessionStorageChanged: false, outOfProcessFrame: false, popupOpened: false, dialogOpened: false, reloadHeld: false, unwatched: false, cdpClient: false }
const opened: WindowState = { url: 'about:blank', historyLength: 1, frames: 0, name: '', opener: false, scrollX: 0, scrollY: 0, focused: false, visibility: 'visible', innerWidth: 1280, innerHeight: 720, outerWidth: 1280, outerHeight: 807, screenX: 20, screenY: 20, devicePixelRatio: 1, zoom: 1 }

t.test('a window is reset only when nothing unwatched or lasting was seen in it', async (t) => {
  t.same(mayReset(clean), { reuse: true })
  for (const key of Object.keys(clean) as Array<keyof WindowUseFacts>) {
    const v = mayReset({ ...clean, [key]: true })
    t.equal(v.reuse, false, `${key} refuses the window`)
    if (!v.reuse) t.equal(v.fact, key, 'and names what it saw')
  }
})

t.test('after the reset the window must be what it was when it opened', async (t) => {
  t.same(resetClean(opened, { ...opened }), { reuse: true })
  const changes: Array<[Partial<WindowState>, string]> = [
    [{ url: 'http://127.0.0.1:1/' }, 'url'],
    [{ historyLength: 2 }, 'historyLength'],
    [{ frames: 1 }, 'frames'],
    [{ name: 'left' }, 'name'],
    [{ opener: true }, 'opener'],
    [{ scrollY: 10 }, 'scrollY'],
    [{ focused: true }, 'focused'],
    [{ visibility: 'hidden' }, 'visibility'],
    [{ outerWidth: 0 }, 'outerWidth'],
    [{ screenX: 30 }, 'screenX'],
    [{ devicePixelRatio: 2 }, 'devicePixelRatio'],
    [{ zoom: 2 }, 'zoom']
  ]
  for (const [change, fact] of changes) {
    const v = resetClean(opened, { ...opened, ...change })
    t.equal(v.reuse, false, `${fact} changed: closed`)
    if (!v.reuse) t.equal(v.fact, fact)
  }
})
