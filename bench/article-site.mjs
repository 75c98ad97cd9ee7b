// The local page the fetch benchmarks load, and a server for it on 127.0.0.1.
import { createServer } from 'node:http'

/** One article of 60 paragraphs (2954 bytes): what the fetch benchmarks fetch. */
export const ARTICLE = '<!doctype html><title>Bench</title><main><h1>Benchmark article</h1>' + '<p>Some steady text for the benchmark page. </p>'.repeat(60) + '</main>'

/** Serves `html` at every path; resolves once it listens. */
export async function serveHtml (html) {
  const server = createServer((_req, res) => { res.writeHead(200, { 'content-type': 'text/html' }); res.end(html) })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() }
}
