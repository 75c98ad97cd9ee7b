import t from 'tap'
import { readFileSync } from 'node:fs'
import { recognizePage, type PageObservation } from '../../src/core/challenge.js'
import { INLINE_MAX_CHARS, RecognitionThreads, THREAD_FAILURES_MAX, usableCpus } from '../../src/fetch/recognize.js'
import { availableParallelism } from 'node:os'
import { documentTitle } from '../../src/core/document-title.js'
import { visibleText } from '../helpers/visible-text.js'

// Real captures (test/fixtures/real/index.json): the largest ordinary page, gates above the inline
// bound, and a small gate.
const REAL = new URL('../fixtures/real/', import.meta.url)
function observed (file: string, status: number): PageObservation {
  const html = readFileSync(new URL(file, REAL), 'utf8')
  return { status, url: 'https://example.org/', title: documentTitle(html), html, text: visibleText(html), headers: {} }
}
const LARGE = observed('olx-ua-cars-search-debug-dump-2025.html', 200)
const LARGE_GATES = [observed('bayut-hcaptcha-identity-challenge-2026.html', 400), observed('cloudflare-block-custom-branded-2024-indeed-dom.html', 403), observed('youtube-watch-sign-in-confirm-not-bot-2025.html', 200)]
// Just above the bound (40 KB): the page the threads' failures are tried with, read inline quickly.
const SMALL_GATE = observed('researchgate-unusual-traffic-ip-blocked-2021.html', 403)
const WORKERS = new URL('../fixtures/workers/', import.meta.url)
// The pure recognition's answer for each page, read once.
const pure = new Map<PageObservation, ReturnType<typeof recognizePage>>()
function expected (page: PageObservation): ReturnType<typeof recognizePage> {
  if (!pure.has(page)) pure.set(page, recognizePage(page))
  return pure.get(page)!
}

t.test('the pages are on the sides of the inline bound the tests need', async t => {
  t.ok(LARGE.html.length > 100 * INLINE_MAX_CHARS, 'the large page is large')
  for (const gate of LARGE_GATES) t.ok(gate.html.length > INLINE_MAX_CHARS, 'a large gate is above the bound')
  t.ok(SMALL_GATE.html.length > INLINE_MAX_CHARS && SMALL_GATE.html.length < 2 * INLINE_MAX_CHARS, 'the small gate, as captured, is just above it')
})

t.test('the threads are sized by the CPUs this process may use, never more than the machine has', async t => {
  const cpus = usableCpus()
  t.ok(Number.isInteger(cpus) && cpus >= 1 && cpus <= availableParallelism(), `${cpus} of ${availableParallelism()}`)
  // A container's quota, in the files Linux writes (cgroup v2 and v1 layouts, in a directory of
  // the test's own): one CPU allowed is one CPU, whatever the machine has.
  const v2 = t.testdir({ 'cpu.max': '100000 100000\n' })
  t.equal(usableCpus(v2), 1, 'cgroup v2 cpu.max')
  const v1 = t.testdir({ cpu: { 'cpu.cfs_quota_us': '100000\n', 'cpu.cfs_period_us': '100000\n' } })
  t.equal(usableCpus(v1), 1, 'cgroup v1 quota over period')
  t.equal(usableCpus(t.testdir({ 'cpu.max': 'max 100000\n' })), availableParallelism(), 'no quota: the machine\'s')
})

t.test('a large page is recognized on a thread, with the answer the pure recognition gives', async t => {
  const threads = new RecognitionThreads({ size: 1 })
  t.teardown(async () => { await threads.close() })
  for (const page of [LARGE, ...LARGE_GATES]) t.same(await threads.recognize(page), expected(page))
  t.equal(threads.threads, 1, 'one thread read them, one after another')
  t.equal((await threads.recognize(LARGE_GATES[0])).page_kind, 'challenge', 'a gate is still a gate')
})

t.test('the event loop turns while a large page is recognized', async t => {
  const threads = new RecognitionThreads({ size: 1 })
  t.teardown(async () => { await threads.close() })
  let turns = 0
  let answered = false
  const answer = threads.recognize(LARGE).then((recognition) => { answered = true; return recognition })
  // Recognized on the loop, the answer would be ready before the loop turned once.
  while (!answered) await new Promise<void>(resolve => setImmediate(() => { turns++; resolve() }))
  t.ok(turns > 1, `the loop turned ${turns} times before the answer`)
  t.same(await answer, expected(LARGE))
  // Read by the thread, not inline after a lost one (whose answer also comes after a few turns).
  t.same(threads.stats, { thread: 1, inline: 0, fallback: 0, timed_out: 0 }, 'answered by the thread')
})

t.test('a small page is recognized inline: no thread starts for it', async t => {
  const threads = new RecognitionThreads({ size: 1 })
  t.teardown(async () => { await threads.close() })
  const small = { ...SMALL_GATE, html: SMALL_GATE.html.slice(0, INLINE_MAX_CHARS) }
  t.same(await threads.recognize(small), recognizePage(small))
  t.equal(threads.threads, 0, 'no thread')
})

t.test('pages recognized at once each get their own answer', async t => {
  const threads = new RecognitionThreads({ size: 2 })
  t.teardown(async () => { await threads.close() })
  const pages = [LARGE, ...LARGE_GATES, LARGE_GATES[1]]
  const answers = await Promise.all(pages.map(async page => await threads.recognize(page)))
  t.same(answers, pages.map(page => expected(page)))
  t.equal(threads.threads, 2, 'no more threads than its size')
})

for (const [file, what] of [['exits-on-start.mjs', 'exits as it starts'], ['throws-on-message.mjs', 'throws reading a page']]) {
  t.test(`a thread that ${what} costs only time: its page is recognized inline`, async t => {
    const threads = new RecognitionThreads({ size: 1, workerUrl: new URL(file, WORKERS) })
    t.teardown(async () => { await threads.close() })
    const reasons: string[] = []
    threads.onFailure(reason => { reasons.push(reason) })
    for (let i = 0; i < THREAD_FAILURES_MAX; i++) t.same(await threads.recognize(SMALL_GATE), expected(SMALL_GATE), `page ${i + 1} answered`)
    t.equal(reasons.length, THREAD_FAILURES_MAX, `each lost thread was told: ${reasons.join('; ')}`)
    t.match(reasons[0], file === 'exits-on-start.mjs' ? /exited with code 3/ : /could not read this page/)
    // Past the bound no thread starts again: every page is read inline.
    t.same(await threads.recognize(SMALL_GATE), expected(SMALL_GATE))
    t.equal(reasons.length, THREAD_FAILURES_MAX, 'no thread was started to be lost again')
    t.equal(threads.threads, 0)
    t.same(threads.stats, { thread: 0, inline: 1, fallback: THREAD_FAILURES_MAX, timed_out: 0 }, 'each lost page read inline, then every page')
  })
}

// A thread that cannot start at all (a process out of threads: EAGAIN) throws from `new Worker`
// itself; a URL Node refuses to start a thread from throws there the same way.
t.test('a thread that cannot start costs only time: its page is recognized inline', async t => {
  const threads = new RecognitionThreads({ size: 1, workerUrl: new URL('http://127.0.0.1/recognition-worker.js') })
  t.teardown(async () => { await threads.close() })
  const reasons: string[] = []
  threads.onFailure(reason => { reasons.push(reason) })
  for (let i = 0; i < THREAD_FAILURES_MAX; i++) t.same(await threads.recognize(SMALL_GATE), expected(SMALL_GATE), `page ${i + 1} answered`)
  t.equal(reasons.length, THREAD_FAILURES_MAX, 'each failed start was told')
  t.match(reasons[0], /^it could not start: .*scheme/)
  t.equal(threads.threads, 0, 'no thread is counted that never started')
  t.same(threads.stats, { thread: 0, inline: 0, fallback: THREAD_FAILURES_MAX, timed_out: 0 })
})

t.test('what a thread\'s recognition throws reaches the caller as it was thrown', async t => {
  const threads = new RecognitionThreads({ size: 1, workerUrl: new URL('answers-with-error.mjs', WORKERS) })
  t.teardown(async () => { await threads.close() })
  await t.rejects(threads.recognize(SMALL_GATE), { name: 'TypeError', message: 'the markup could not be read' })
  t.equal(threads.threads, 1, 'the thread answered, so it stays')
})

t.test('a page a thread reads past the time limit is answered unrecognized, and the thread ended', async t => {
  const threads = new RecognitionThreads({ size: 1, workerUrl: new URL('never-answers.mjs', WORKERS), maxMs: 300 })
  t.teardown(async () => { await threads.close() })
  const reasons: string[] = []
  threads.onFailure(reason => { reasons.push(reason) })
  t.same(await threads.recognize(SMALL_GATE), {}, 'the host cannot tell: no page_kind, no challenge')
  t.same(reasons, ['it read one page for over 300 ms'])
  t.equal(threads.threads, 0, 'the thread was ended')
  t.equal(threads.stats.timed_out, 1)
})

t.test('a listener that stops hearing is not told', async t => {
  const threads = new RecognitionThreads({ size: 1, workerUrl: new URL('exits-on-start.mjs', WORKERS) })
  t.teardown(async () => { await threads.close() })
  const heard: string[] = []
  const stop = threads.onFailure(reason => { heard.push(reason) })
  await threads.recognize(SMALL_GATE)
  stop()
  await threads.recognize(SMALL_GATE)
  t.equal(heard.length, 1)
})

t.test('closed, the threads end and every page is recognized inline', async t => {
  const threads = new RecognitionThreads({ size: 1 })
  const reading = threads.recognize(LARGE_GATES[0])
  const queued = threads.recognize(SMALL_GATE)
  await threads.close()
  t.same(await reading, expected(LARGE_GATES[0]), 'the page a thread was reading')
  t.same(await queued, expected(SMALL_GATE), 'a page waiting for a thread')
  t.same(await threads.recognize(SMALL_GATE), expected(SMALL_GATE), 'a page after')
  t.equal(threads.threads, 0)
})
