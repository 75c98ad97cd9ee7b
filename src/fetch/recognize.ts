// Recognition off the event loop. Recognition is pure and synchronous (src/core/challenge.ts), and
// on a large page it is slow: the corpus's largest real pages take 0.2 s to 1.7 s each
// (docs/performance.md, "Recognition off the event loop"). The host's one event loop also relays
// every panel's frames and a person's input, and a handoff's completion monitor looks at its page
// after each of the person's moves: on the loop, a large page would stall every live panel that
// long, each time. So a page larger than INLINE_MAX_CHARS is recognized on a worker thread, and a
// small one (four gates in five of the corpus's) inline, where a thread's round trip would cost
// more than the loop is spared.
import { Worker } from 'node:worker_threads'
import { availableParallelism } from 'node:os'
import { readFileSync } from 'node:fs'
import { cpusAllowed, type CgroupCpuFiles } from '../core/cpu-quota.js'
import { Listeners } from '../core/listeners.js'
import { recognizePage, type PageObservation, type Recognition } from '../core/challenge.js'

/** What a recognition thread is sent: one page's observation (src/fetch/recognition-worker.ts). */
export interface RecognitionJob { id: number, observation: PageObservation }
/** What it answers: the recognition, or what the pure recognition threw (an Error survives the copy). */
export type RecognitionAnswer = { id: number, recognition: Recognition } | { id: number, error: unknown }

/**
 * How pages were recognized (GET /metrics, `afhttp_recognitions_total`): on a thread; inline (a
 * small page, or no thread to be had); inline after their thread was lost; unrecognized after
 * RECOGNITION_MAX_MS on a thread.
 */
export interface RecognitionStats { thread: number, inline: number, fallback: number, timed_out: number }

/** Markup up to this many characters is recognized inline: about 10 ms of the loop at most. */
export const INLINE_MAX_CHARS = 32 * 1024
/** Threads at most, however many cores: recognitions are rare beside a page's own rendering. */
const THREADS_MAX = 4
/** Threads lost before the host stops starting them and recognizes every page inline. */
export const THREAD_FAILURES_MAX = 3
/**
 * A page's recognition on a thread takes at most this long (the slowest real page here takes under
 * 2 s; the bounded patterns keep a hostile one in the same range: docs/performance.md). Past it the
 * thread is ended and the page answered unrecognized, as an unobservable page is: the host cannot
 * tell, and reading it inline would stall the loop for as long.
 */
export const RECOGNITION_MAX_MS = 30_000

interface Pending {
  job: RecognitionJob
  resolve: (recognition: Recognition) => void
  reject: (err: unknown) => void
  /** The time limit's timer, while a thread reads the page. */
  timer?: NodeJS.Timeout
}

/**
 * A few worker threads, started when a large page first needs one, each reading one page at a
 * time. A thread that dies costs nothing but time: its page is recognized inline and its place
 * taken by a new thread, until THREAD_FAILURES_MAX are lost; then every page is recognized inline.
 */
export class RecognitionThreads {
  readonly #url: URL
  readonly #size: number
  readonly #idle: Worker[] = []
  readonly #busy = new Map<Worker, Pending>()
  readonly #queue: Pending[] = []
  // Its one listener is the host's log (src/plugins/recognition.ts): a throw there has nowhere to go.
  readonly #failureListeners = new Listeners<[reason: string]>(() => undefined)
  readonly #maxMs: number
  readonly #stats: RecognitionStats = { thread: 0, inline: 0, fallback: 0, timed_out: 0 }
  #nextId = 1
  #failures = 0
  #closed = false

  constructor (opts: { size?: number, workerUrl?: URL, maxMs?: number } = {}) {
    this.#url = opts.workerUrl ?? new URL('./recognition-worker.js', import.meta.url)
    // One core is left to the loop and the browsers: the cores a container's quota allows, not the
    // machine's (usableCpus).
    this.#size = opts.size ?? Math.min(THREADS_MAX, Math.max(1, usableCpus() - 1))
    this.#maxMs = opts.maxMs ?? RECOGNITION_MAX_MS
  }

  /** How pages were recognized so far. */
  get stats (): Readonly<RecognitionStats> {
    return { ...this.#stats }
  }

  /** The page's recognition, read on a thread when its markup is large. */
  async recognize (observation: PageObservation): Promise<Recognition> {
    if (observation.html.length <= INLINE_MAX_CHARS || !this.#threaded()) {
      this.#stats.inline++
      return recognizePage(observation)
    }
    return await new Promise<Recognition>((resolve, reject) => {
      this.#queue.push({ job: { id: this.#nextId++, observation }, resolve, reject })
      this.#dispatch()
    })
  }

  /** Hears each lost thread's reason (the host logs it); returns how to stop hearing. */
  onFailure (listener: (reason: string) => void): () => void {
    this.#failureListeners.add(listener)
    return () => { this.#failureListeners.remove(listener) }
  }

  /** Threads running now, idle or busy. */
  get threads (): number {
    return this.#idle.length + this.#busy.size
  }

  /** Ends every thread; a page one was reading, and any later one, is recognized inline. */
  async close (): Promise<void> {
    this.#closed = true
    const workers = [...this.#idle, ...this.#busy.keys()]
    this.#idle.length = 0
    const pending = [...this.#busy.values(), ...this.#queue.splice(0)]
    this.#busy.clear()
    await Promise.all(workers.map(async worker => await worker.terminate()))
    for (const p of pending) this.#settleInline(p)
  }

  #threaded (): boolean {
    return !this.#closed && this.#failures < THREAD_FAILURES_MAX
  }

  #dispatch (): void {
    while (this.#queue.length > 0 && this.#threaded()) {
      let worker = this.#idle.pop()
      if (worker === undefined) {
        if (this.threads >= this.#size) return
        try {
          worker = this.#start()
        } catch (err) {
          // No thread to be had (a process limit: EAGAIN): the page waiting is read inline.
          this.#failed(`it could not start: ${err instanceof Error ? err.message : String(err)}`)
          this.#settleInline(this.#queue.shift()!)
          continue
        }
      }
      const pending = this.#queue.shift()!
      this.#busy.set(worker, pending)
      // A busy thread keeps the process alive until it answers, an idle one never does.
      worker.ref()
      pending.timer = setTimeout(() => { this.#timedOut(worker) }, this.#maxMs).unref()
      worker.postMessage(pending.job)
    }
    for (const p of this.#queue.splice(0)) this.#settleInline(p)
  }

  #start (): Worker {
    const worker = new Worker(this.#url)
    worker.on('message', (answer: RecognitionAnswer) => { this.#answered(worker, answer) })
    worker.on('error', (err: Error) => { this.#lost(worker, err.message) })
    worker.on('exit', (code: number) => { this.#lost(worker, `it exited with code ${code}`) })
    return worker
  }

  #answered (worker: Worker, answer: RecognitionAnswer): void {
    const pending = this.#busy.get(worker)
    if (pending === undefined || pending.job.id !== answer.id) return
    clearTimeout(pending.timer)
    this.#busy.delete(worker)
    worker.unref()
    this.#idle.push(worker)
    this.#stats.thread++
    if ('error' in answer) pending.reject(answer.error)
    else pending.resolve(answer.recognition)
    this.#dispatch()
  }

  // A thread still reading its page at the time limit is ended, and the page answered unrecognized.
  #timedOut (worker: Worker): void {
    const pending = this.#busy.get(worker)
    if (pending === undefined) return
    this.#busy.delete(worker)
    this.#stats.timed_out++
    pending.resolve({})
    this.#retire(worker, `it read one page for over ${this.#maxMs} ms`)
  }

  // A thread that threw or exited: the page it was reading is read inline.
  #lost (worker: Worker, reason: string): void {
    // A thread already retired (ended here, or by close) is heard exiting: nothing more to do.
    if (!this.#idle.includes(worker) && !this.#busy.has(worker)) return
    const pending = this.#busy.get(worker)
    this.#busy.delete(worker)
    if (pending !== undefined) {
      clearTimeout(pending.timer)
      this.#settleInline(pending)
    }
    this.#retire(worker, reason)
  }

  #retire (worker: Worker, reason: string): void {
    const idleAt = this.#idle.indexOf(worker)
    if (idleAt >= 0) this.#idle.splice(idleAt, 1)
    void worker.terminate()
    this.#failed(reason)
    this.#dispatch()
  }

  #failed (reason: string): void {
    this.#failures++
    this.#failureListeners.emit(reason)
    // Past the bound no page goes to a thread again: the idle ones would only hold their heaps.
    if (!this.#threaded()) for (const worker of this.#idle.splice(0)) void worker.terminate()
  }

  // A page that asked for a thread and is read inline after all.
  #settleInline (pending: Pending): void {
    this.#stats.fallback++
    try {
      pending.resolve(recognizePage(pending.job.observation))
    } catch (err) {
      pending.reject(err)
    }
  }
}

/**
 * CPUs this process may use: the machine's, or fewer where a container's CPU quota says so
 * (src/core/cpu-quota.ts). `cgroupRoot` is where the cgroup files are mounted (a test's own directory).
 */
export function usableCpus (cgroupRoot = '/sys/fs/cgroup'): number {
  const read = (path: string): string | undefined => {
    try {
      return readFileSync(path, 'utf8')
    } catch {
      return undefined
    }
  }
  const files: CgroupCpuFiles = {
    cpuMax: read(`${cgroupRoot}/cpu.max`),
    cfsQuotaUs: read(`${cgroupRoot}/cpu/cpu.cfs_quota_us`),
    cfsPeriodUs: read(`${cgroupRoot}/cpu/cpu.cfs_period_us`)
  }
  return Math.min(availableParallelism(), cpusAllowed(files) ?? Infinity)
}

/** The host's recognition threads: one set for the process, as the pure recognition is one. */
export const recognitionThreads = new RecognitionThreads()

/** A page's recognition (src/core/challenge.ts), off the event loop when the page is large. */
export async function recognize (observation: PageObservation): Promise<Recognition> {
  return await recognitionThreads.recognize(observation)
}
