/**
 * What the order record tells a person, as codes with typed params, worded in European Portuguese
 * and English from this one catalogue (the pattern of the mapping's catalogue). The node's error
 * items carry `why: { code, params }` and the English words (n8n's own language); the Portuguese
 * words are for a workflow that writes to a Portuguese shop owner (`whyPt`).
 */
type Lang = 'pt' | 'en';

interface ClaimParams {
  'unrecorded-duplicate': { orderId: number; externalId: string };
  'written-back-failed': { orderId: number; documentId: number; documentNumber: string; cause: string };
}
export type ClaimCode = keyof ClaimParams;
export type ClaimMessage = { [C in ClaimCode]: { code: C; params: ClaimParams[C] } }[ClaimCode];

const CATALOGUE: { [C in ClaimCode]: Record<Lang, { reason: (p: ClaimParams[C]) => string; whatToDo: (p: ClaimParams[C]) => string }> } = {
  'unrecorded-duplicate': {
    en: {
      reason: (p) => `Order #${p.orderId} was not invoiced again: MagniFinance already has a document with External ID ${p.externalId} for this buyer, and the order records no number for it (issued before the order record was on, or by hand)`,
      whatToDo: (p) => `Find the document with External ID ${p.externalId} in MagniFinance and write its id and number on order #${p.orderId} as _magnifinance_document_id and _magnifinance_document_number. Nothing was issued now.`,
    },
    pt: {
      reason: (p) => `A encomenda #${p.orderId} não foi faturada outra vez: a MagniFinance já tem um documento com o External ID ${p.externalId} para este cliente e a encomenda não regista o seu número (emitido antes do registo na encomenda, ou à mão)`,
      whatToDo: (p) => `Procure o documento com o External ID ${p.externalId} na MagniFinance e escreva o seu id e número na encomenda #${p.orderId} como _magnifinance_document_id e _magnifinance_document_number. Nada foi emitido agora.`,
    },
  },
  'written-back-failed': {
    en: {
      reason: (p) => `Document ${p.documentNumber} (id ${p.documentId}) was issued for order #${p.orderId}, but writing its number on the order failed: ${p.cause}`,
      whatToDo: () => 'Nothing more is issued for this order: its claim names the document. Fix the shop (it was down, or the REST key is read-only) and run the order again (save it, or retry the execution): the run resumes the same document and writes its number.',
    },
    pt: {
      reason: (p) => `O documento ${p.documentNumber} (id ${p.documentId}) foi emitido para a encomenda #${p.orderId}, mas escrever o seu número na encomenda falhou: ${p.cause}`,
      whatToDo: () => 'Nada mais é emitido para esta encomenda: a sua reserva indica o documento. Corrija a loja (estava em baixo, ou a chave REST só tem leitura) e corra a encomenda outra vez (guarde-a, ou repita a execução): a execução retoma o mesmo documento e escreve o seu número.',
    },
  },
};

export function claimText(lang: Lang, message: ClaimMessage, part: 'reason' | 'whatToDo'): string {
  const entry = CATALOGUE[message.code][lang] as { reason: (p: ClaimMessage['params']) => string; whatToDo: (p: ClaimMessage['params']) => string };
  return entry[part](message.params);
}
