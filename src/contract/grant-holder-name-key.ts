/**
 * When two role or group names are the same: when their keys are. Unicode NFKC (fullwidth,
 * ligatures and other compatibility forms fold to their plain letters), case-folded (upper- then
 * lower-case, so "ß" and "SS" meet), invisible default-ignorable characters (zero-width spaces and
 * joiners, soft hyphens) dropped, and runs of white space collapsed to one space. The model keeps
 * names unique per tenant by it (src/events/grant-holder-names.ts); the role and group bodies refuse
 * a name whose key is empty or reads as a UUID.
 */
export function grantHolderNameKey(name: string): string {
  return name
    .normalize('NFKC')
    .replace(/\p{Default_Ignorable_Code_Point}/gu, '')
    .toUpperCase()
    .toLowerCase()
    .normalize('NFKC')
    .replace(/\s+/gu, ' ')
    .trim();
}

/**
 * A name that reads as a UUID (any case, with or without hyphens or braces), after normalising.
 * Looser on purpose than UUID_PATTERN (src/events/vocabulary.ts), which says what an id is: this
 * keeps names from passing for ids in any spelling a reader would take for one.
 */
export const looksLikeUuid = (name: string) =>
  /^\{?[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\}?$/.test(
    grantHolderNameKey(name).replace(/^urn:uuid:/, ''),
  );
