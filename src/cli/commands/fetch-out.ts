import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { FetchResult } from '../../client/index.js'

/** Writes a result's artifacts and the exact result to DIR; returns the file names written. */
export async function writeArtifacts (dir: string, result: FetchResult): Promise<string[]> {
  await mkdir(dir, { recursive: true })
  const written: string[] = []
  const put = async (name: string, data: string | Buffer): Promise<void> => {
    await writeFile(join(dir, name), data)
    written.push(join(dir, name))
  }
  const a = result.artifacts ?? {}
  if (a.html !== undefined) await put('page.html', a.html)
  if (a.text !== undefined) await put('page.txt', a.text)
  if (a.screenshot) await put(a.screenshot.mime === 'image/png' ? 'screenshot.png' : 'screenshot.jpg', Buffer.from(a.screenshot.base64, 'base64'))
  await put('result.json', `${JSON.stringify(result, null, 2)}\n`)
  return written
}
