/** One server-sent event as framed on the wire. */
export interface SseMessage { id?: string, event?: string, data: string }

/**
 * An incremental text/event-stream parser (the WHATWG framing: fields per line, a blank line
 * ends an event, `:` starts a comment such as a heartbeat). Feed it chunks as they arrive.
 */
export class SseParser {
  #buffer = ''
  #data: string[] = []
  #id: string | undefined
  #event: string | undefined

  feed (chunk: string): SseMessage[] {
    this.#buffer += chunk
    const out: SseMessage[] = []
    let nl: number
    while ((nl = this.#buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = this.#buffer.slice(0, nl)
      const width = this.#buffer.startsWith('\r\n', nl) ? 2 : 1
      // A lone \r at the end of a chunk may be the first half of \r\n: wait for more.
      if (width === 1 && this.#buffer[nl] === '\r' && nl === this.#buffer.length - 1) break
      this.#buffer = this.#buffer.slice(nl + width)
      if (line === '') {
        if (this.#data.length) out.push({ id: this.#id, event: this.#event, data: this.#data.join('\n') })
        this.#data = []
        this.#event = undefined
        continue
      }
      if (line.startsWith(':')) continue
      const colon = line.indexOf(':')
      const field = colon < 0 ? line : line.slice(0, colon)
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '')
      if (field === 'data') this.#data.push(value)
      else if (field === 'id') this.#id = value
      else if (field === 'event') this.#event = value
    }
    return out
  }
}
