/** What a helper needs of tap's test to clean up after itself (a tap Test, or anything with teardown). */
export interface Teardown { teardown: (fn: () => Promise<void> | void) => void }
