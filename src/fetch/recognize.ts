// Recognition off the event loop. Recognition is pure and synchronous (src/core/challenge.ts), and
// on a large page it is slow: a 2.7 MB rendered dashboard takes about a second (docs/performance.md,
// "Recognition off the event loop"). The host's one event loop also relays every panel's frames
// and a person's input, and a handoff's completion monitor looks at its page twice a second: on
// the loop, a large page would stall every live panel for that second, each time. So a page larger
// than INLINE_MAX_CHARS is recognized on a worker thread, and a small one (four gates in five of
// the corpus's) inline, where a thread's round trip would cost more than the loop is spared.
import { Worker } from 'node:worker_threads'
import { availableParallelism } from 'node:os'
import { Listeners } from '../core/listeners.js'
import { recognizePage, type PageObservation, type Recognition } from '../core/challenge.js'

/** What a recognition thread is sent: one page's observation (src/fetch/recognition-worker.ts). */
export interface RecognitionJob { id: number, observation: PageObservation }
/** What it answers: the recognition, or why the pure recognition threw. */
export type RecognitionAnswer = { id: number, recognition: Recognition } | { id: number, error: string }

/** Markup up to this many characters is recognized inline: about 10 ms of the loop at most. */
export const INLINE_MAX_CHARS = 32 * 1024
/** Threads at most, however many cores: recognitions are rare beside a page's own rendering. */
const THREADS_MAX = 4
/** Threads lost before the host stops starting them and recognizes every page inline. */
export const THREAD_FAILURES_MAX = 3

interface Pending {
  job: RecognitionJob
  resolve: (recognition: Recognition) => void
  reject: (err: Error) => void
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
  #nextId = 1
  #failures = 0
  #closed = false

  constructor (opts: { size?: number, workerUrl?: URL } = {}) {
    this.#url = opts.workerUrl ?? new URL('./recognition-worker.js', import.meta.url)
    this.#size = opts.size ?? Math.min(THREADS_MAX, Math.max(1, availableParallelism() - 1))
  }

  /** The page's recognition, read on a thread when its markup is large. */
  async recognize (observation: PageObservation): Promise<Recognition> {
    if (observation.html.length <= INLINE_MAX_CHARS || !this.#threaded()) return recognizePage(observation)
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
    for (const p of pending) settleInline(p)
  }

  #threaded (): boolean {
    return !this.#closed && this.#failures < THREAD_FAILURES_MAX
  }

  #dispatch (): void {
    while (this.#queue.length > 0) {
      const worker = this.#idle.pop() ?? this.#start()
      if (worker === undefined) return
      const pending = this.#queue.shift()!
      this.#busy.set(worker, pending)
      // A busy thread keeps the process alive until it answers, an idle one never does.
      worker.ref()
      worker.postMessage(pending.job)
    }
  }

  #start (): Worker | undefined {
    if (this.threads >= this.#size) return undefined
    const worker = new Worker(this.#url)
    worker.on('message', (answer: RecognitionAnswer) => { this.#answered(worker, answer) })
    worker.on('error', (err: Error) => { this.#lost(worker, err.message) })
    worker.on('exit', (code: number) => { this.#lost(worker, `it exited with code ${code}`) })
    return worker
  }

  #answered (worker: Worker, answer: RecognitionAnswer): void {
    const pending = this.#busy.get(worker)
    if (pending === undefined || pending.job.id !== answer.id) return
    this.#busy.delete(worker)
    worker.unref()
    this.#idle.push(worker)
    if ('error' in answer) pending.reject(new Error(answer.error))
    else pending.resolve(answer.recognition)
    this.#dispatch()
  }

  #lost (worker: Worker, reason: string): void {
    const idleAt = this.#idle.indexOf(worker)
    const pending = this.#busy.get(worker)
    if (idleAt < 0 && pending === undefined) return
    if (idleAt >= 0) this.#idle.splice(idleAt, 1)
    this.#busy.delete(worker)
    void worker.terminate()
    this.#failures++
    this.#failureListeners.emit(reason)
    if (pending !== undefined) settleInline(pending)
    if (this.#threaded()) this.#dispatch()
    else for (const p of this.#queue.splice(0)) settleInline(p)
  }
}

function settleInline (pending: Pending): void {
  try {
    pending.resolve(recognizePage(pending.job.observation))
  } catch (err) {
    pending.reject(err instanceof Error ? err : new Error(String(err)))
  }
}

/** The host's recognition threads: one set for the process, as the pure recognition is one. */
export const recognitionThreads = new RecognitionThreads()

/** A page's recognition (src/core/challenge.ts), off the event loop when the page is large. */
export async function recognize (observation: PageObservation): Promise<Recognition> {
  return await recognitionThreads.recognize(observation)
}
