// The start of a panel test: a host with a retained tab (one a person may open) showing a page,
// and a second browser to play the person.
import type { Browser } from 'puppeteer-core'
import { startHost, type TestHost } from './host.js'
import { startFixtureServer } from './fixture-server.js'
import { launchViewerBrowser } from './panel-browser.js'
import type { TabRecord } from '../../src/tabs/types.js'
import type { Teardown } from './teardown.js'

export interface RetainedTab { host: TestHost, tab: TabRecord, browser: Browser }

/** A retained tab of the default profile showing `html` (served on 127.0.0.1), and the viewer's browser. */
export async function retainedTabShowing (t: Teardown, html: string): Promise<RetainedTab> {
  const host = await startHost(t)
  const site = await startFixtureServer(t, { '/page': { body: html } })
  const browser = await launchViewerBrowser(t)
  const tab = await host.app.tabs.open(host.config.defaultProfile)
  tab.retained = true
  await tab.page.goto(`${site.url}/page`)
  return { host, tab, browser }
}
