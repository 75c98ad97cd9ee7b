// Minting a panel link as a driver does: `takeover_unavailable` (503) is retryable — a live check
// can miss its budget on a busy machine — so the mint is asked again; any other refusal fails
// the test with the host's own answer.
import type { TestHost } from './host.js'
import { retry503 } from './retry-503.js'

export interface Minted { takeover_url_secret: string, handoff_fence: string, expires_at: string }

export async function mintPanelLink (host: TestHost, tabId: string, body: Record<string, unknown> = {}): Promise<Minted> {
  const res = await retry503(() => host.api(`/v1/tabs/${tabId}/handoff`, { method: 'POST', body: JSON.stringify(body) }))
  const answer = await res.json() as Minted
  if (res.status !== 200) throw new Error(`mint answered ${res.status}: ${JSON.stringify(answer)}`)
  return answer
}
