// Whether a page is built like an application (PageFacts.appMarkup; on a blank page, an app's
// shell, PageFacts.appShell): a framework's mount point, a build's bundles, or scripts from several
// places. An interstitial loads its vendor's one script. Pure, like the rest of src/core.
import type { Tag } from './tag.js'
import { withoutQuery } from './page-url.js'

// Mount points of the common front-end frameworks (React's conventional root and react-root, Vue,
// Next, Nuxt, SvelteKit, Ember, Gatsby, Docusaurus, Quasar).
const MOUNT_IDS = new Set(['root', 'react-root', 'app', 'app-mount', '__next', '__nuxt', 'svelte', 'main-app', 'ember-application', '___gatsby', '__docusaurus', 'q-app'])

// AngularJS marks the element it runs the app in, or hands a controller (twenty-third review: a
// games portal's and a bank's shells).
const ANGULARJS_ROOT = ['ng-app', 'data-ng-app', 'ng-controller', 'data-ng-controller']

// A build tool's bundle: a first-party script named by its content hash ("main.8f2a1c.js",
// "index-B3kq9x2a.js"), which a check's page, loading its vendor's one script, does not carry; an
// app may mount anywhere ("#application", "#storefront"), so the bundle says more than the id
// (twelfth review).
const HASHED_BUNDLE = /^(?:\/[\w.-]+)*\/(?:main|app|index|bundle|runtime|vendors?|chunk|client|entry)[.-][0-9a-z_-]{6,}\.m?js$/i
// Or the entry point a build writes into its output folder ("/dist/app.js", "/build/main.js").
const BUILT_ENTRY = /^\/(?:[\w.-]+\/)*(?:dist|build|static\/js|assets)\/(?:main|app|index|bundle)(?:[.-][\w.-]*)?\.m?js$/i

/** Built like an application (PageFacts.appMarkup); on a blank page, an app's shell (PageFacts.appShell). */
export function builtAsApp (tags: Tag[]): boolean {
  if (tags.some(tag => MOUNT_IDS.has(tag.attrs.id ?? '') || tag.name === 'app-root' || ANGULARJS_ROOT.some(name => tag.attrs[name] !== undefined))) return true
  const bundle = (src: string): boolean => HASHED_BUNDLE.test(src) || BUILT_ENTRY.test(src)
  if (tags.some(tag => tag.name === 'script' && bundle(withoutQuery(tag.attrs.src ?? '')))) return true
  // An interstitial loads its one vendor script; an app loads its bundles (several paths).
  const sources = new Set(tags.filter(tag => tag.name === 'script' && tag.attrs.src !== undefined)
    .map(tag => withoutQuery(tag.attrs.src)))
  return sources.size >= 3
}
