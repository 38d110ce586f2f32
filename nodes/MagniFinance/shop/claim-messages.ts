/**
 * What the order record tells a person, as codes with typed params, worded in European Portuguese
 * and English from this one catalogue (the pattern of the mapping's catalogue). The node's error
 * items carry `why: { code, params }` and the English words (n8n's own language); the Portuguese
 * words are for a workflow that writes to a Portuguese shop owner (`whyPt`).
 */
type Lang = 'pt' | 'en';

interface ClaimParams {
  /** `record`: the meta key(s) where the order keeps this document's number. */
  'unrecorded-duplicate': { orderId: number; externalId: string; record: string };
  /** A waybill create was sent by a run that never named the document (it died, or the create's answer was lost). */
  'create-unknown': { orderId: number; externalId: string; claim: string; record: string };
  'written-back-failed': { orderId: number; documentId: number; documentNumber: string; cause: string };
  /** A waybill was created, and the shop refused its id on the claim (compare-and-set: the claim had changed), which no run should do to a claim that is sending. */
  'claim-changed-after-create': { orderId: number; externalId: string; documentId: number; claim: string; record: string };
}
export type ClaimCode = keyof ClaimParams;
export type ClaimMessage = { [C in ClaimCode]: { code: C; params: ClaimParams[C] } }[ClaimCode];

const CATALOGUE: { [C in ClaimCode]: Record<Lang, { reason: (p: ClaimParams[C]) => string; whatToDo: (p: ClaimParams[C]) => string }> } = {
  'unrecorded-duplicate': {
    en: {
      reason: (p) => `Order #${p.orderId} was not invoiced again: MagniFinance already has a document with External ID ${p.externalId} for this buyer, and the order records no number for it (issued before the order record was on, or by hand)`,
      whatToDo: (p) => `Find the document with External ID ${p.externalId} in MagniFinance and write it on order #${p.orderId} as ${p.record}. Nothing was issued now.`,
    },
    pt: {
      reason: (p) => `A encomenda #${p.orderId} não foi faturada outra vez: a MagniFinance já tem um documento com o External ID ${p.externalId} para este cliente e a encomenda não regista o seu número (emitido antes do registo na encomenda, ou à mão)`,
      whatToDo: (p) => `Procure o documento com o External ID ${p.externalId} na MagniFinance e escreva-o na encomenda #${p.orderId} como ${p.record.replace(' and ', ' e ')}. Nada foi emitido agora.`,
    },
  },
  'create-unknown': {
    en: {
      reason: (p) => `Order #${p.orderId} was not sent again: a run sent the create with External ID ${p.externalId} and stopped before it named the document (${p.claim}), so the document may exist`,
      whatToDo: (p) => `Look for External ID ${p.externalId} in MagniFinance. If it is there, write it on order #${p.orderId} as ${p.record}; if not, delete the meta ${p.claim} from the order and run it again. Nothing was issued now.`,
    },
    pt: {
      reason: (p) => `A encomenda #${p.orderId} não foi enviada outra vez: uma execução enviou a criação com o External ID ${p.externalId} e parou antes de indicar o documento (${p.claim}), por isso o documento pode existir`,
      whatToDo: (p) => `Procure o External ID ${p.externalId} na MagniFinance. Se lá estiver, escreva-o na encomenda #${p.orderId} como ${p.record.replace(' and ', ' e ')}; se não, apague o meta ${p.claim} da encomenda e corra-a outra vez. Nada foi emitido agora.`,
    },
  },
  'claim-changed-after-create': {
    en: {
      reason: (p) => `Document id ${p.documentId} (External ID ${p.externalId}) was created for order #${p.orderId}, but the order's claim ${p.claim} had changed before its id could be written on it, so the order does not record it`,
      whatToDo: (p) => `Nothing more is sent by this run. Look in MagniFinance for External ID ${p.externalId}: keep document id ${p.documentId}, write its number on order #${p.orderId} as ${p.record}, and check that no other run issued a second one.`,
    },
    pt: {
      reason: (p) => `O documento id ${p.documentId} (External ID ${p.externalId}) foi criado para a encomenda #${p.orderId}, mas a reserva ${p.claim} da encomenda mudou antes de o seu id lá ser escrito, por isso a encomenda não o regista`,
      whatToDo: (p) => `Esta execução não envia mais nada. Procure o External ID ${p.externalId} na MagniFinance: mantenha o documento id ${p.documentId}, escreva o seu número na encomenda #${p.orderId} como ${p.record.replace(' and ', ' e ')} e confirme que nenhuma outra execução emitiu um segundo.`,
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
