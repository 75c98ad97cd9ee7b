// A site's chrome around a page (docs/decisions.md, Recognition by what a gate is): its footer,
// navigation, header and sidebars are the same on every page, its gate included, so their words
// and links are not the page's own. Pure, like the rest of src/core.
import { countWords, tagsOf, type PageFacts, type Tag } from './page-facts.js'
import { elements, footerBlocks, headerBlocks, outermost, sideBlocks, textOf } from './markup-elements.js'
import { isWidget } from './gate-widgets.js'

// A site's chrome around a page: its footer is the same on every page, its gate included, so the
// footer's links are not the page's; a <nav> outside it with more than a logo's or a home link is
// the site's navigation.
const NAV_MAX_LINKS = 2

/** Links a gate may carry (help, privacy, the vendor): a site's navigation has more. */
export const GATE_MAX_LINKS = 8

/** What a page's chrome (footer, navigation, header, sidebars) leaves for its own part, and what it holds. */
export interface SiteChrome {
  footerLinks: number
  footerWords: number
  /** A <nav> outside the footer with more links than a logo's or a home link. */
  navigation: boolean
  /** The page's own part: its markup with head, header, navigation, asides, sidebars and footers cut out. */
  main: string
  mainText: string
  mainWords: number
  /** The words of all but its head, sidebars, cookie banners, footers and a header that is navigation. */
  ownWords: number
}

/**
 * Links that go somewhere: anchors with an address, not a script's ("javascript:void(0)" on a
 * CAPTCHA's "another picture" and "submit", which are its controls: Sogou's check, thirty-third
 * review). Counted so everywhere a page's links are weighed.
 */
export function linksIn (tags: Tag[]): number {
  return tags.filter(tag => tag.name === 'a' && tag.attrs.href !== undefined && !SCRIPT_ADDRESS.test(tag.attrs.href)).length
}
const SCRIPT_ADDRESS = /^\s*javascript:/i

export function siteChrome (f: PageFacts, loader: boolean): SiteChrome {
  const footers = outermost([...elements(f.shown, 'footer', false), ...footerBlocks(f.shown)])
  const outside = without(f.shown, footers)
  const navigation = elements(outside, 'nav', true).some(([start, end]) => linksIn(tagsOf(outside.slice(start, end))) > NAV_MAX_LINKS)
  const footerLinks = footers.reduce((sum, [start, end]) => sum + linksIn(tagsOf(f.shown.slice(start, end))), 0)
  const footerWords = footers.reduce((sum, [start, end]) => sum + countWords(textOf(f.shown.slice(start, end))), 0)
  // Sidebars and cookie banners, unless one holds a vendor's widget: then it is no sidebar, or it
  // was never closed and runs over the page's own part.
  const sides = sideBlocks(outside).filter(([start, end]) => !tagsOf(outside.slice(start, end)).some(tag => isWidget(tag, loader)))
  const head = elements(outside, 'head', false)
  // The words of the page's own part: all but its head, header, navigation, asides, sidebars,
  // cookie banners and footers, hidden words counted too (so a hidden menu never makes a page
  // look shorter than it is).
  const main = without(outside, outermost([...head, ...['header', 'nav', 'aside'].flatMap(name => elements(outside, name, false)), ...headerBlocks(outside), ...sides]))
  // The words of all but its head, sidebars, cookie banners and footers: a header can hold an
  // article's hero, unless it is the site's navigation: a header dense with links, most of its
  // words theirs (Anjuke's city lists; not a lede under a menu: fifteenth review).
  const navHeaders = [...elements(outside, 'header', false), ...headerBlocks(outside)]
    .filter(([start, end]) => linksIn(tagsOf(outside.slice(start, end))) > GATE_MAX_LINKS && mostlyLinks(outside.slice(start, end)))
  const ownWords = countWords(textOf(without(outside, outermost([...head, ...sides, ...navHeaders]))))
  const mainText = textOf(main)
  return { footerLinks, footerWords, navigation, main, mainText, mainWords: countWords(mainText), ownWords }
}

// Most of a block's words are its links' words: a menu, not a hero with a menu in it.
const LINK_ELEMENT = /<a\b[^<>]*>[\s\S]{0,400}?<\/a\s*>/g
function mostlyLinks (block: string): boolean {
  const linkWords = [...block.matchAll(LINK_ELEMENT)].reduce((sum, m) => sum + countWords(textOf(m[0])), 0)
  return linkWords * 2 >= countWords(textOf(block))
}

// The markup with the given spans (sorted, not overlapping) cut out.
export function without (markup: string, spans: Array<[number, number]>): string {
  let kept = ''
  let from = 0
  for (const [start, end] of spans) { kept += markup.slice(from, start); from = end }
  return kept + markup.slice(from)
}
