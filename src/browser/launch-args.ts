/** Flags every afhttp Chromium gets; the first four keep it off this network's closed doors. */
export function chromiumArgs (opts: { isRoot: boolean, width: number, height: number, headful?: boolean }): string[] {
  const args = [
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-quic',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--password-store=basic',
    '--use-mock-keychain',
    // Background tabs must keep painting: the panel streams a tab that may not be frontmost.
    '--disable-renderer-backgrounding',
    '--disable-backgrounding-occluded-windows',
    '--disable-background-timer-throttling',
    // RenderDocument and the back/forward cache give each navigation a new main-frame widget,
    // which learns its window's size only after the page's first scripts ran: a site reading
    // outerWidth while parsing saw 0 in ~15 % of fetches (a headless tell). Without them a
    // fetch's first navigation and a same-site re-fetch keep the widget (docs/decisions.md).
    '--disable-features=Translate,MediaRouter,OptimizationHints,RenderDocument,BackForwardCache',
    // docs/spec.md section 13: an ordinary browser. Puppeteer's --enable-automation is left out
    // (IGNORED_DEFAULT_ARGS) and the webdriver flag goes with this; nothing else is altered.
    '--disable-blink-features=AutomationControlled',
    // Headful windows carry the toolbar above the page: size the window so the page keeps its viewport.
    `--window-size=${opts.width},${opts.height + (opts.headful ? HEADFUL_CHROME_PX : 0)}`
  ]
  if (opts.isRoot) args.push('--no-sandbox')
  return args
}

/**
 * docs/spec.md section 21: a profile's network identity as launch flags. Everything goes through the
 * host's forwarder, loopback too (Chromium bypasses a proxy for loopback unless told `<-loopback>`),
 * and WebRTC may not send UDP around it. The locale sets navigator.language(s) and Accept-Language
 * from the first byte; Intl's default locale is set per page (src/browser/identity.ts) because
 * Chromium takes --lang only for UI locales it ships, often en-US alone.
 */
export function identityArgs (opts: { proxyServer?: string, acceptLanguages?: string[] }): string[] {
  const args: string[] = []
  if (opts.proxyServer) {
    args.push(`--proxy-server=${opts.proxyServer}`, '--proxy-bypass-list=<-loopback>', '--force-webrtc-ip-handling-policy=disable_non_proxied_udp')
  }
  if (opts.acceptLanguages?.length) args.push(`--lang=${opts.acceptLanguages[0]}`, `--accept-lang=${opts.acceptLanguages.join(',')}`)
  return args
}

export const DEFAULT_VIEWPORT = { width: 1280, height: 720 } as const
/** Height of Chromium's own toolbar and tab strip on Xvfb (measured: window 863 → page 776). */
export const HEADFUL_CHROME_PX = 87
/** Puppeteer defaults that would tell every site it is automated. */
export const IGNORED_DEFAULT_ARGS = ['--enable-automation']

export function runningAsRoot (): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0
}
