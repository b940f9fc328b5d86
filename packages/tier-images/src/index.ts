/**
 * Image stripping: image parts outside the recent turns become a one-line text placeholder.
 * @packageDocumentation
 */
export { defaultImagePlaceholder, type ImageStripOptions, imageStripTier, type StrippedImage } from './image-strip-tier.ts';
