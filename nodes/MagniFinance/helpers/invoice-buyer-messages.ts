/**
 * Why a credit note was not issued because the node could not read the buyer its invoice carried
 * (CIVA art. 29(7), 78(2)), as codes with typed params, worded in European Portuguese and English
 * from this one catalogue (the pattern of shop/claim-messages.ts). The item carries `why: { code,
 * params }`, the English words and the Portuguese in `whyPt`.
 */
type Lang = 'pt' | 'en';

interface InvoiceBuyerParams {
  /** No invoice document id: not in Invoice Document ID, not on the order's record. */
  'invoice-buyer-unknown': { invoiceNumber: string; order: string };
  /** The id given or recorded is another document than the invoice the credit note names. */
  'invoice-document-other': { invoiceNumber: string; documentId: number; found: string };
  /** The id names no document (deleted draft, another account's id). */
  'invoice-document-missing': { invoiceNumber: string; documentId: number };
  /** The invoice is cancelled: there is nothing left for a credit note to correct. */
  'invoice-document-cancelled': { invoiceNumber: string; documentId: number };
  /** The service's answer names no buyer's tax number. */
  'invoice-buyer-unreadable': { invoiceNumber: string; documentId: number };
}
export type InvoiceBuyerCode = keyof InvoiceBuyerParams;
export type InvoiceBuyerMessage = { [C in InvoiceBuyerCode]: { code: C; params: InvoiceBuyerParams[C] } }[InvoiceBuyerCode];

type Words<P> = Record<Lang, { reason: (p: P) => string; whatToDo: (p: P) => string }>;

const GIVE_ID = {
  en: 'Set Invoice Document ID to the id of that invoice (the documentId of the run that issued it, or the order\'s _magnifinance_document_id), or use Order Record: In the Shop where the order records it. Nothing was issued.',
  pt: 'Indique em Invoice Document ID o id dessa fatura (o documentId da execução que a emitiu, ou o _magnifinance_document_id da encomenda), ou use Order Record: In the Shop, onde a encomenda o regista. Nada foi emitido.',
};

const CATALOGUE: { [C in InvoiceBuyerCode]: Words<InvoiceBuyerParams[C]> } = {
  'invoice-buyer-unknown': {
    en: {
      reason: (p) => `The credit note of order ${p.order} was not issued: it must name the buyer invoice ${p.invoiceNumber} carried (CIVA art. 29(7), 78(2)), and the node cannot read that invoice: no Invoice Document ID was given and the order records no document for ${p.invoiceNumber}. The buyer the order gives now may not be the invoice's (a NIF added since, a VAT number VIES refused)`,
      whatToDo: () => GIVE_ID.en,
    },
    pt: {
      reason: (p) => `A nota de crédito da encomenda ${p.order} não foi emitida: tem de identificar o comprador que a fatura ${p.invoiceNumber} levava (art. 29.º, n.º 7, e art. 78.º, n.º 2, do CIVA), e o nó não consegue ler essa fatura: não foi dado o Invoice Document ID e a encomenda não regista nenhum documento para ${p.invoiceNumber}. O comprador que a encomenda indica agora pode não ser o da fatura (um NIF acrescentado depois, um número de IVA recusado pelo VIES)`,
      whatToDo: () => GIVE_ID.pt,
    },
  },
  'invoice-document-other': {
    en: {
      reason: (p) => `The credit note was not issued: document ${p.documentId} is ${p.found}, not invoice ${p.invoiceNumber}, so the buyer it names cannot be the invoice's`,
      whatToDo: (p) => `Give the Invoice Number and the Invoice Document ID of the same invoice (Document > Get with id ${p.documentId} shows its number). Nothing was issued.`,
    },
    pt: {
      reason: (p) => `A nota de crédito não foi emitida: o documento ${p.documentId} é ${p.found}, não a fatura ${p.invoiceNumber}, por isso o comprador que indica não pode ser o da fatura`,
      whatToDo: (p) => `Indique o Invoice Number e o Invoice Document ID da mesma fatura (Document > Get com o id ${p.documentId} mostra o seu número). Nada foi emitido.`,
    },
  },
  'invoice-document-missing': {
    en: {
      reason: (p) => `The credit note was not issued: MagniFinance has no document ${p.documentId}, given as invoice ${p.invoiceNumber}, so the buyer the invoice carried cannot be read`,
      whatToDo: () => `Check the id (and the Partner Token, when the invoice is a partner's). ${GIVE_ID.en}`,
    },
    pt: {
      reason: (p) => `A nota de crédito não foi emitida: a MagniFinance não tem o documento ${p.documentId}, indicado como a fatura ${p.invoiceNumber}, por isso o comprador que a fatura levava não pode ser lido`,
      whatToDo: () => `Verifique o id (e o Partner Token, quando a fatura é de um parceiro). ${GIVE_ID.pt}`,
    },
  },
  'invoice-document-cancelled': {
    en: {
      reason: (p) => `The credit note was not issued: invoice ${p.invoiceNumber} (document ${p.documentId}) is cancelled in MagniFinance, so there is nothing left for a credit note to correct`,
      whatToDo: () => 'Ask the accountant how this refund is documented. Nothing was issued.',
    },
    pt: {
      reason: (p) => `A nota de crédito não foi emitida: a fatura ${p.invoiceNumber} (documento ${p.documentId}) está anulada na MagniFinance, por isso não há nada para uma nota de crédito corrigir`,
      whatToDo: () => 'Pergunte ao contabilista como se documenta este reembolso. Nada foi emitido.',
    },
  },
  'invoice-buyer-unreadable': {
    en: {
      reason: (p) => `The credit note was not issued: MagniFinance's answer for invoice ${p.invoiceNumber} (document ${p.documentId}) names no buyer's tax number, so the credit note cannot name the invoice's buyer (CIVA art. 29(7), 78(2))`,
      whatToDo: () => 'Issue the credit note in MagniFinance by hand, with the invoice\'s buyer. Nothing was issued.',
    },
    pt: {
      reason: (p) => `A nota de crédito não foi emitida: a resposta da MagniFinance para a fatura ${p.invoiceNumber} (documento ${p.documentId}) não indica o número fiscal do comprador, por isso a nota de crédito não pode identificar o comprador da fatura (art. 29.º, n.º 7, e art. 78.º, n.º 2, do CIVA)`,
      whatToDo: () => 'Emita a nota de crédito à mão na MagniFinance, com o comprador da fatura. Nada foi emitido.',
    },
  },
};

export function invoiceBuyerText(lang: Lang, message: InvoiceBuyerMessage, part: 'reason' | 'whatToDo'): string {
  const entry = CATALOGUE[message.code][lang] as { reason: (p: InvoiceBuyerMessage['params']) => string; whatToDo: (p: InvoiceBuyerMessage['params']) => string };
  return entry[part](message.params);
}
