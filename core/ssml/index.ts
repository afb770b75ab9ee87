export { escapeXml, lengthAddedByEscaping } from './escape-xml';
export { buildProsodySsml, signedSsmlValue, type ProsodySsmlOptions } from './prosody-ssml';
