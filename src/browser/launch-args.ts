/** Flags every afhttp Chromium gets; the first four keep it off this network's closed doors. */
export function chromiumArgs (opts: { isRoot: boolean, width: number, height: number }): string[] {
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
    '--disable-features=Translate,MediaRouter,OptimizationHints',
    `--window-size=${opts.width},${opts.height}`
  ]
  if (opts.isRoot) args.push('--no-sandbox')
  return args
}

export const DEFAULT_VIEWPORT = { width: 1280, height: 720 } as const

export function runningAsRoot (): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0
}
