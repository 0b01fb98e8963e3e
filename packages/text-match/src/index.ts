export { boundedEditDistance } from './edit-distance';
export { foldedWords, foldText } from './fold-text';
export { TypoIndex } from './typo-index';
