// Types of scripts/check-layers.mjs, for its test.
export interface Layer { name: string, areas: string[], why: string }
export const LAYERS: Layer[]
export const PANEL_PAGE_MAY_IMPORT: string[]
export const CORE_PACKAGES: string[]
export function areaOf (file: string): string
export function importsOf (source: string): string[]
export function checkLayers (files: Map<string, string>): string[]
export function cyclesOf (edges: Map<string, string[]>): string[][]
export function readTree (srcDir: string): Map<string, string>
export function renderLayerTable (): string
