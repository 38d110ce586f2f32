/**
 * Finds English in text meant to be Portuguese: the console's pages, the notes on orders, the
 * alerts. A word list of English words that are not Portuguese words (function words and the
 * domain's own: order, invoice, refund...), checked after taking out what is not prose: setting
 * names (invoicing.companyNif), quoted values, URLs, identifiers (DocumentIsADuplicate, ExternalId).
 * The list errs towards words a sentence cannot avoid, so an English sentence always has some.
 */
const ENGLISH = new Set(
  `the and or is are was were be been being not nothing with without for from to of this that these those
   will would can cannot could should must may might has have had does did done it its an them they
   please check order orders invoice invoices refund refunds credit note notes issued issue
   shop customer buyer tax number rate rates amount given valid invalid error failed
   because when then there here what why which who how again try retry now button page
   held hold waiting person enqueued scanned resumed sweep settings setting
   yes none all any some only also but if else than after before until since`
    .split(/\s+/)
    .filter(Boolean),
);

/** Tokens that are names, not prose: settings, identifiers, links, quoted words, e-mail addresses. */
const NOT_PROSE = [
  /https?:\/\/\S+/g,
  /"[^"]*"/g,
  /`[^`]*`/g,
  /\b[\w-]+(?:\.[\w-]+)+\b/g, // invoicing.companyNif, a.b.c, host names
  /\b[\w.+-]+@[\w.-]+\b/g,
  /\b[a-z]+[A-Z]\w*\b/g, // camelCase: orderChanged
  /\b[A-Z][a-z]+[A-Z]\w*\b/g, // PascalCase: DocumentIsADuplicate, ExternalId
  /\/[\w/.:-]+/g, // paths
];

/** The English words in `text`, in order (repeats kept); empty when the text reads as Portuguese. */
export function englishWords(text: string): string[] {
  let prose = text;
  for (const pattern of NOT_PROSE) prose = prose.replace(pattern, ' ');
  // Whole words, accented letters included: "Canárias" is one Portuguese word, not "can" + "rias".
  return (prose.toLowerCase().match(/\p{L}+/gu) ?? []).filter((word) => ENGLISH.has(word));
}
