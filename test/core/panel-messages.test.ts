import t from 'tap'
import { isInput, MAX_MESSAGE_BYTES, MAX_PASTE_CHARS, MAX_TEXT_CHARS, parsePanelMessage } from '../../src/panel/messages.js'
import { DEFAULTED, PANEL_MESSAGES } from '../../src/schemas/panel-messages.js'
import { newTabId } from '../../src/core/tab-id.js'
import { keyByCode, NAMED_KEYS, shortcutFor } from '../../src/vocabulary/keys.js'

const ok = (m: unknown): unknown => { const r = parsePanelMessage(JSON.stringify(m)); if (!r.ok) throw new Error(r.error); return r.msg }
const err = (m: unknown): string => { const r = parsePanelMessage(typeof m === 'string' ? m : JSON.stringify(m)); if (r.ok) throw new Error('accepted'); return r.error }

t.test('control and size messages', async (t) => {
  t.same(ok({ t: 'take' }), { t: 'take' })
  t.same(ok({ t: 'done', extra: 1 }), { t: 'done' }, 'extra fields are ignored, never passed on')
  t.same(ok({ t: 'size', width: 390, height: 600, dpr: 3, whole: true }), { t: 'size', width: 390, height: 600, dpr: 3, whole: true })
  t.same(ok({ t: 'size', width: 390, height: 600 }), { t: 'size', width: 390, height: 600, dpr: 1, whole: false }, 'dpr 1 and not whole when left out')
  t.same(ok({ t: 'size', width: 390, height: 600, dpr: 12 }), { t: 'size', width: 390, height: 600, dpr: 8, whole: false }, 'a zoomed-in viewer\'s ratio is kept within range')
  t.match(err({ t: 'size', width: 390, height: 600, dpr: 'x' }), /size\.dpr must be number \(device pixel ratio/)
  t.match(err({ t: 'size', width: -1, height: 2 }), /size\.width must be >= 0/)
})

t.test('input messages are checked field by field', async (t) => {
  const down = ok({ t: 'mouse', type: 'down', g: 3, x: 10.5, y: 20.25, button: 'left', clicks: 2, mods: 8 })
  t.same(down, { t: 'mouse', g: 3, type: 'down', x: 10.5, y: 20.25, button: 'left', clicks: 2, mods: 8 })
  t.ok(isInput(down as never))
  t.same(ok({ t: 'mouse', type: 'move', g: 3, x: 1, y: 1 }), { t: 'mouse', g: 3, type: 'move', x: 1, y: 1, button: 'none', clicks: 1, mods: 0 })
  t.match(err({ t: 'mouse', type: 'down', g: 3, x: 1, y: 1 }), /need a button/)
  // JSON has no Infinity, but 1e400 parses to it.
  t.match(err('{"t":"mouse","type":"down","g":3,"x":1e400,"y":1,"button":"left"}'), /mouse\.x must be a finite number/)
  t.match(err({ t: 'mouse', type: 'down', g: 3, x: 'left', y: 1, button: 'left' }), /mouse\.x must be number/)
  t.match(err({ t: 'mouse', type: 'down', button: 'left' }), /^mouse must have required properties g, x, y$/, 'several missing fields are named, none described')
  t.match(err({ t: 'mouse', type: 'drag', g: 3, x: 1, y: 1 }), /mouse\.type must be one of "down", "move", "up"/)
  t.match(err({ t: 'mouse', type: 'down', x: 1, y: 1, button: 'left' }), /generation/)
  t.match(err({ t: 'mouse', type: 'down', g: 1.5, x: 1, y: 1, button: 'left' }), /generation/)
  t.same(ok({ t: 'wheel', g: 1, x: 5, y: 5, dx: 0, dy: -120 }), { t: 'wheel', g: 1, x: 5, y: 5, dx: 0, dy: -120, mods: 0 })
  t.match(err({ t: 'key', g: 1, type: 'down', key: 'Enter', mods: 99 }), /key\.mods must be <= 15 \(CDP modifier bits/, 'bad modifiers are refused, never sent as none (Ctrl-Enter is not Enter)')
  t.match(err({ t: 'key', g: 1, type: 'down', key: 'a' }), /printable characters go as text/)
  t.match(err({ t: 'key', g: 1, type: 'down', key: 'constructor' }), /key\.key .*relayed key/, 'no prototype keys')
  t.same(ok({ t: 'shortcut', g: 1, key: 'z', shift: true }), { t: 'shortcut', g: 1, key: 'z', shift: true })
  t.match(err({ t: 'shortcut', g: 1, key: 'r' }), /shortcut\.key must be one of "a", "z", "y"/, 'reload is never the page\'s')
  t.same(ok({ t: 'text', g: 1, text: 'ıé日本' }), { t: 'text', g: 1, text: 'ıé日本' })
  t.match(err({ t: 'text', g: 1, text: 'x'.repeat(MAX_TEXT_CHARS + 1) }), /text\.text is 1025 characters; the limit is 1024/)
  t.ok(ok({ t: 'paste', g: 1, text: 'p'.repeat(MAX_PASTE_CHARS) }))
  t.match(err({ t: 'paste', g: 1, text: 'p'.repeat(MAX_PASTE_CHARS + 1) }), /paste\.text is 16385 characters; the limit is 16384/)
  t.match(err({ t: 'paste', g: 1, text: '' }), /paste\.text must not be empty/)
})

t.test('malformed messages', async (t) => {
  t.equal(err('not json'), 'not JSON')
  t.equal(err('[1]'), 'not an object')
  t.equal(err('null'), 'not an object')
  t.match(err({ t: 'eval', g: 1 }), /unknown message type/)
  t.equal(err(' '.repeat(MAX_MESSAGE_BYTES + 1)), 'message too large')
})

t.test('key tables', async (t) => {
  for (const spec of Object.values(NAMED_KEYS)) {
    t.ok(spec.keyCode > 0, `${spec.code} has a virtual key code`)
    t.equal(keyByCode(spec.code), spec)
  }
  t.equal(NAMED_KEYS.Enter.text, '\r', 'Enter submits forms')
  t.equal(keyByCode('KeyQ'), undefined)
  t.same(shortcutFor('z', true)?.commands, ['redo'])
  t.same(shortcutFor('a', false)?.commands, ['selectAll'])
  t.equal(shortcutFor('w', false), undefined)
})

t.test('decline carries an optional reason of at most 200 characters', async (t) => {
  t.same(parsePanelMessage('{"t":"decline"}'), { ok: true, msg: { t: 'decline' } })
  t.same(parsePanelMessage(JSON.stringify({ t: 'decline', reason: '  wrong account  ' })), { ok: true, msg: { t: 'decline', reason: 'wrong account' } })
  t.same(parsePanelMessage(JSON.stringify({ t: 'decline', reason: '   ' })), { ok: true, msg: { t: 'decline' } })
  t.equal(parsePanelMessage(JSON.stringify({ t: 'decline', reason: 'x'.repeat(201) })).ok, false)
  t.equal(parsePanelMessage(JSON.stringify({ t: 'decline', reason: 5 })).ok, false)
})

t.test('detail messages: the part on show and its density, or none', async (t) => {
  t.same(ok({ t: 'detail', rect: { x: 400, y: 100, width: 256, height: 464 }, scale: 4.57 }), { t: 'detail', rect: { x: 400, y: 100, width: 256, height: 464 }, scale: 4.57 })
  t.same(ok({ t: 'detail', rect: null, scale: 1 }), { t: 'detail', rect: null, scale: 1 }, 'null withdraws the ask')
  t.same(ok({ t: 'detail', scale: 1 }), { t: 'detail', rect: null, scale: 1 }, 'so does no rect')
  t.match(err({ t: 'detail', rect: { x: 0, y: 0, width: 10, height: 10 } }), /scale/)
  t.match(err({ t: 'detail', rect: { x: 0, y: 0, width: -1, height: 10 }, scale: 2 }), /rect/)
  t.match(err({ t: 'detail', rect: 'all', scale: 2 }), /rect/)
  t.match(err({ t: 'detail', rect: { x: 0, y: 0, width: 10, height: 10 }, scale: Infinity }), /scale/)
})

t.test('each picker kind takes its own input type\'s syntax and nothing else', async (t) => {
  const values = { date: '2026-05-17', time: '14:30', 'datetime-local': '2026-05-17T09:00', month: '2026-05', week: '2026-W07', color: '#1E90ff' }
  for (const [kind, value] of Object.entries(values)) {
    t.same(ok({ t: 'picker', g: 1, kind, value }), { t: 'picker', g: 1, kind, value }, `${kind} ${value}`)
    const other = Object.values(values).find((v) => v !== value && !v.startsWith(value))!
    t.match(err({ t: 'picker', g: 1, kind, value: other }), new RegExp(`picker\\.value is not a ${kind} value in HTML's own syntax`), `${kind} refuses ${other}`)
  }
})

t.test('fields nobody asked for are dropped at every level', async (t) => {
  t.same(ok({ t: 'detail', rect: { x: 1, y: 2, width: 30, height: 40, z: 9 }, scale: 2, extra: true }), { t: 'detail', rect: { x: 1, y: 2, width: 30, height: 40 }, scale: 2 })
  const tabId = newTabId()
  t.same(ok({ t: 'show', tab_id: tabId, g: 4 }), { t: 'show', tab_id: tabId })
  t.match(err({ t: 'show', tab_id: '../../x y' }), /show\.tab_id is not valid \(a tab id/)
  t.match(err({ t: 'chooser', g: 1, cancel: false }), /chooser\.cancel must be true/)
})

t.test('a message nested thousands deep is refused, never thrown', async (t) => {
  const deep = (n: number): string => '['.repeat(n) + ']'.repeat(n)
  for (const raw of [`{"t":"detail","scale":1,"rect":${deep(15_000)}}`, `{"t":"select","g":1,"index":${deep(15_000)}}`]) {
    t.ok(raw.length < MAX_MESSAGE_BYTES, `${raw.length} characters, within the message limit`)
    const r = parsePanelMessage(raw)
    t.equal(r.ok, false)
  }
  t.match(err({ t: ['mouse'], g: 1 }), /^t must be a message type$/)
})

t.test('the defaulted fields are the ones the schemas give a default', async (t) => {
  const withDefault = new Set<string>()
  for (const schema of Object.values(PANEL_MESSAGES)) {
    for (const [name, field] of Object.entries((schema as unknown as { properties: Record<string, { default?: unknown }> }).properties)) if ('default' in field) withDefault.add(name)
  }
  t.same([...withDefault].sort(), [...DEFAULTED].sort())
})
