import t from 'tap'
import { describeDialog, dialogAnswer, dialogOrigin, dialogWarning, DIALOG_MESSAGE_MAX_CHARS, safeUploadName, selectKeys, type SelectOption } from '../../src/core/page-ui.js'
import { permissionsProblem } from '../../src/core/permissions.js'
import { pickerSegments, typedPickerKeys } from '../../src/panel/picker-keys.js'
import { isInput, isUiAnswer, parsePanelMessage } from '../../src/panel/messages.js'

t.test('dialogs as drivers and the panel see them', async (t) => {
  const d = describeDialog({ type: 'prompt', message: 'Name?', url: 'https://shop.example/a/b?c', defaultPrompt: 'you' }, Date.UTC(2026, 0, 2))
  t.same(d, { type: 'prompt', message: 'Name?', origin: 'https://shop.example', default_prompt: 'you', opened_at: '2026-01-02T00:00:00.000Z' })
  t.notOk('default_prompt' in describeDialog({ type: 'alert', message: 'x', url: 'http://127.0.0.1:9/' }, 0), 'only a prompt has default text')
  t.equal(describeDialog({ type: 'alert', message: 'x'.repeat(DIALOG_MESSAGE_MAX_CHARS + 10), url: 'about:blank' }, 0).message.length, DIALOG_MESSAGE_MAX_CHARS, 'long messages are cut')
  const emoji = describeDialog({ type: 'prompt', message: 'a' + '😀'.repeat(DIALOG_MESSAGE_MAX_CHARS), url: 'about:blank', defaultPrompt: '😀'.repeat(DIALOG_MESSAGE_MAX_CHARS + 1) }, 0)
  t.equal([...emoji.message].length, DIALOG_MESSAGE_MAX_CHARS, 'characters are counted as code points')
  t.notMatch(emoji.message, /[\uD800-\uDBFF](?![\uDC00-\uDFFF])/, 'no emoji is cut in half')
  t.equal(emoji.default_prompt, '😀'.repeat(DIALOG_MESSAGE_MAX_CHARS), 'so is the default answer')
  t.equal(describeDialog({ type: 'weird', message: '', url: '' }, 0).type, 'alert', 'an unknown type is shown as an alert')
  t.equal(dialogOrigin('data:text/html,hi'), 'data:')
  t.equal(dialogOrigin('not a url'), 'unknown')
  const w = dialogWarning(describeDialog({ type: 'confirm', message: 'Sure?', url: 'http://127.0.0.1:8/' }, 0))
  t.equal(w.code, 'dialog_open')
  t.same(w.dialog, { type: 'confirm', message: 'Sure?', origin: 'http://127.0.0.1:8' })
  t.match(w.message, /never answers dialogs/)
})

t.test('a person\'s answer becomes Page.handleJavaScriptDialog parameters', async (t) => {
  const at = (type: string): ReturnType<typeof describeDialog> => describeDialog({ type, message: '', url: 'http://a.test/' }, 0)
  t.same(dialogAnswer(at('alert'), false), { accept: true }, 'an alert has only OK')
  t.same(dialogAnswer(at('confirm'), false), { accept: false })
  t.same(dialogAnswer(at('prompt'), true, 'Zoë'), { accept: true, promptText: 'Zoë' })
  t.same(dialogAnswer(at('prompt'), true), { accept: true, promptText: '' })
  t.same(dialogAnswer(at('prompt'), false, 'ignored'), { accept: false })
  t.same(dialogAnswer(at('beforeunload'), true), { accept: true })
})

t.test('select lists: the keys a person presses in the open list', async (t) => {
  const opts: SelectOption[] = [0, 1, 2, 3, 4, 5].map((index) => ({ index, label: `o${index}`, disabled: index === 2 || index === 4, group: null }))
  t.same(selectKeys(opts, 0, 5), ['ArrowDown', 'ArrowDown', 'ArrowDown', 'Enter'], 'disabled options are stepped over')
  t.same(selectKeys(opts, 5, 1), ['ArrowUp', 'ArrowUp', 'Enter'])
  t.same(selectKeys(opts, 3, 3), ['Enter'], 'the same option commits without moving')
  t.same(selectKeys(opts, 0, 2), ['Escape'], 'a disabled option cannot be chosen: the value stays')
  t.same(selectKeys(opts, 0, null), ['Escape'], 'dismissing')
  t.same(selectKeys(opts, 0, 99), ['Escape'], 'an unknown index')
  t.same(selectKeys(opts, -1, 1), ['ArrowDown', 'ArrowDown', 'Enter'], 'from no selection')
})

t.test('uploaded file names: no paths, no control characters', async (t) => {
  t.equal(safeUploadName('C:\\\\Users\\\\me\\\\passport.pdf'), 'passport.pdf')
  t.equal(safeUploadName('../../etc/passwd'), 'passwd')
  t.equal(safeUploadName('..'), 'file')
  t.equal(safeUploadName('a\u0000b\nc.txt'), 'abc.txt')
  t.equal(safeUploadName('Zoë scan.png'), 'Zoë scan.png')
  t.equal(safeUploadName('x'.repeat(300)).length, 200)
})

t.test('profile permissions are validated', async (t) => {
  t.equal(permissionsProblem({ 'https://maps.example': ['geolocation'], 'http://127.0.0.1:8080': ['notifications', 'clipboard-read'] }), undefined)
  t.match(permissionsProblem([]), /object/)
  t.match(permissionsProblem({ 'https://a.example/': ['geolocation'] }), /no path or trailing slash/)
  t.match(permissionsProblem({ 'ftp://a.example': ['geolocation'] }), /http\(s\) origin/)
  t.match(permissionsProblem({ nope: ['geolocation'] }), /not an origin/)
  t.match(permissionsProblem({ 'https://a.example': [] }), /non-empty/)
  t.match(permissionsProblem({ 'https://a.example': ['midi'] }), /known permissions are/)
  t.match(permissionsProblem(Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`https://a${i}.example`, ['camera']]))), /at most 32/)
})

t.test('date and time values as typed segments', async (t) => {
  t.same(pickerSegments('date', '2026-05-17'), ['05', '17', '2026'], 'en-US order by default')
  t.same(pickerSegments('date', '2026-05-17', { order: ['day', 'month', 'year'], hour12: false }), ['17', '05', '2026'])
  t.same(pickerSegments('time', '14:30'), ['02', '30', 'P'])
  t.same(pickerSegments('time', '00:05:09'), ['12', '05', '09', 'A'])
  t.same(pickerSegments('time', '14:30', { order: ['year', 'month', 'day'], hour12: false }), ['14', '30'])
  t.same(pickerSegments('datetime-local', '2026-05-17T09:00'), ['05', '17', '2026', '09', '00', 'A'])
  t.same(pickerSegments('month', '2026-05'), ['05', '2026'])
  t.same(pickerSegments('week', '2026-W07'), ['07', '2026'])
  t.equal(pickerSegments('color', '#aabbcc'), undefined, 'a colour cannot be typed')
  const keys = typedPickerKeys('date', '2026-05-17')
  t.same(keys.slice(0, 4), [{ key: 'ArrowLeft' }, { key: 'ArrowLeft' }, { key: 'ArrowLeft' }, { key: 'ArrowLeft' }], 'back to the first segment first')
  t.equal(keys.slice(4).map((k) => k.char).join(''), '05172026')
})

t.test('panel messages that answer browser UI', async (t) => {
  const ok = (m: unknown): unknown => { const r = parsePanelMessage(JSON.stringify(m)); if (!r.ok) throw new Error(r.error); return r.msg }
  const err = (m: unknown): string => { const r = parsePanelMessage(JSON.stringify(m)); if (r.ok) throw new Error('accepted'); return r.error }
  const d = ok({ t: 'dialog', g: 2, accept: true, text: 'Åsa' })
  t.same(d, { t: 'dialog', g: 2, accept: true, text: 'Åsa' })
  t.ok(isUiAnswer(d as never))
  t.notOk(isInput(d as never), 'an answer is not relayed as raw input')
  t.match(err({ t: 'dialog', g: 2 }), /accept/)
  t.match(err({ t: 'dialog', accept: true }), /generation/)
  t.match(err({ t: 'dialog', g: 1, accept: true, text: 'x'.repeat(17_000) }), /dialog\.text is 17000 characters; the limit is 16384/)
  t.same(ok({ t: 'select', g: 1, index: null }), { t: 'select', g: 1, index: null })
  t.same(ok({ t: 'select', g: 1, index: 4 }), { t: 'select', g: 1, index: 4 })
  t.match(err({ t: 'select', g: 1, index: -1 }), /select\.index is not valid \(an option's index, or null/)
  t.same(ok({ t: 'chooser', g: 1, cancel: true }), { t: 'chooser', g: 1, cancel: true })
  t.match(err({ t: 'chooser', g: 1, files: ['/etc/passwd'] }), /chooser must have required properties cancel \(the socket only cancels/)
  t.same(ok({ t: 'picker', g: 1, kind: 'date', value: '2026-05-17' }), { t: 'picker', g: 1, kind: 'date', value: '2026-05-17' })
  t.match(err({ t: 'picker', g: 1, kind: 'date', value: '17/05/2026' }), /picker\.value is not a date value in HTML's own syntax/)
  t.match(err({ t: 'picker', g: 1, kind: 'file', value: 'x' }), /picker.kind/)
})

t.test('profile metadata keeps its permission grants through a write', async (t) => {
  const { newMetadata, parseMetadata, serializeMetadata } = await import('../../src/core/profile-metadata.js')
  const meta = { ...newMetadata({ name: 'shop' }, new Date(0)), permissions: { 'https://maps.example': ['geolocation' as const] } }
  const back = parseMetadata(serializeMetadata(meta), 'shop', '/p/shop/afhttp-profile.json')
  t.same(back.permissions, { 'https://maps.example': ['geolocation'] })
  t.notOk('permissions' in parseMetadata(serializeMetadata(newMetadata({ name: 'shop' })), 'shop', '/x'), 'absent stays absent')
  t.throws(() => parseMetadata(serializeMetadata({ ...meta, permissions: { 'https://maps.example': ['midi'] } } as never), 'shop', '/p/shop/afhttp-profile.json'), /permissions .*midi/)
})

t.test('sameDialog: a dialog announced again is the same one; a new one (even with the same words) is not', async (t) => {
  const { sameDialog } = await import('../../src/core/page-ui.js')
  const first = describeDialog({ type: 'prompt', message: 'Your name, please', url: 'http://127.0.0.1:1/x', defaultPrompt: 'anonymous' }, 1000)
  t.ok(sameDialog(first, { ...first }))
  t.notOk(sameDialog(first, { ...first, opened_at: new Date(2000).toISOString() }), 'asked again later')
  t.notOk(sameDialog(first, { ...first, message: 'Your age?' }))
  t.notOk(sameDialog(first, { ...first, type: 'confirm' }))
  t.notOk(sameDialog(null, first))
  t.notOk(sameDialog(first, null))
})
