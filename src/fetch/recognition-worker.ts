// The thread a large page is recognized on (src/fetch/recognize.ts says why). It answers each
// observation with the pure recognition's answer (src/core/challenge.ts) and keeps nothing
// between them, so a thread that dies loses only the page it was reading.
import { parentPort } from 'node:worker_threads'
import { recognizePage } from '../core/challenge.js'
import type { RecognitionJob, RecognitionAnswer } from './recognize.js'

parentPort?.on('message', ({ id, observation }: RecognitionJob) => {
  let answer: RecognitionAnswer
  try {
    answer = { id, recognition: recognizePage(observation) }
  } catch (err) {
    // An Error survives the copy to the host with its name, message and stack.
    answer = { id, error: err }
  }
  parentPort?.postMessage(answer)
})
