/** An element's opening tag as the page's markup writes it: its name and attributes, names lower-cased (page-facts.ts tagsOf). */
export interface Tag { name: string; attrs: Record<string, string> }
