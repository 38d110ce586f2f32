import type { Lang } from '../words';
import { shopDateTime } from '../../messages/dates';

/** The console's words in Portuguese and English. One table: a missing word is a type error. */
const WORDS = {
  title: { pt: 'Consola do conector MagniFinance', en: 'MagniFinance connector console' },
  shops: { pt: 'Lojas', en: 'Shops' },
  shop: { pt: 'Loja', en: 'Shop' },
  waiting: { pt: 'Precisam da sua atenção', en: 'Need your attention' },
  noneWaiting: { pt: 'Nenhuma encomenda precisa da sua atenção. Está tudo em dia.', en: 'No order needs your attention. All caught up.' },
  recent: { pt: 'Documentos recentes', en: 'Recent documents' },
  noneRecent: { pt: 'Ainda não há documentos.', en: 'No documents yet.' },
  today: { pt: 'Hoje', en: 'Today' },
  issuedToday: { pt: 'Documentos emitidos hoje', en: 'Documents issued today' },
  health: { pt: 'Sincronização e webhooks', en: 'Sweep and webhooks' },
  order: { pt: 'Encomenda', en: 'Order' },
  customer: { pt: 'Cliente', en: 'Customer' },
  document: { pt: 'Documento', en: 'Document' },
  number: { pt: 'Número', en: 'Number' },
  total: { pt: 'Total', en: 'Total' },
  when: { pt: 'Quando', en: 'When' },
  why: { pt: 'Porquê', en: 'Why' },
  whatToDo: { pt: 'O que fazer', en: 'What to do' },
  state: { pt: 'Estado', en: 'State' },
  pdf: { pt: 'PDF', en: 'PDF' },
  documentId: { pt: 'Id do documento na MagniFinance', en: 'Document id in MagniFinance' },
  dismissReason: { pt: 'Como foi tratada (ex.: fatura FT A/12 emitida à mão)', en: 'How it was handled (e.g. invoice FT A/12 issued by hand)' },
  sweepNow: { pt: 'Sincronizar agora', en: 'Sweep now' },
  lastSweep: { pt: 'Última sincronização', en: 'Last sweep' },
  never: { pt: 'nunca', en: 'never' },
  webhooksOk: { pt: 'Os webhooks de encomendas estão ativos.', en: 'Order webhooks are active.' },
  webhooksInactive: {
    pt: 'Há webhooks inativos na loja: reative-os em WooCommerce → Definições → Avançado → Webhooks.',
    en: 'Webhooks not active on the shop: re-enable them in WooCommerce → Settings → Advanced → Webhooks.',
  },
  topicsMissing: { pt: 'Sem webhook ativo para', en: 'No active webhook for' },
  done: { pt: 'Feito', en: 'Done' },
  failed: { pt: 'Não foi possível', en: 'Could not do it' },
  back: { pt: 'Todas as lojas', en: 'All shops' },
  language: { pt: 'English', en: 'Português' },
  running: { pt: 'O conector está a funcionar.', en: 'The connector is running.' },
  redisDown: { pt: 'O Redis não responde: os webhooks recebem 503.', en: 'Redis does not answer: webhooks get 503.' },
  openConsole: { pt: 'Abrir a consola', en: 'Open the console' },
  company: { pt: 'Empresa', en: 'Company' },
  configuration: { pt: 'Configuração', en: 'Configuration' },
  reload: { pt: 'Recarregar o ficheiro de lojas', en: 'Reload the tenants file' },
  reloaded: { pt: 'Ficheiro de lojas recarregado', en: 'Tenants file reloaded' },
  notReloaded: { pt: 'O ficheiro de lojas NÃO foi recarregado porque tem erros; continua em uso a configuração anterior', en: 'Tenants file NOT reloaded: it has mistakes; the running configuration stays' },
  neverReloaded: { pt: 'Ainda não foi recarregado desde o arranque.', en: 'Not reloaded since the start.' },
  added: { pt: 'acrescentadas', en: 'added' },
  removed: { pt: 'retiradas', en: 'removed' },
  changed: { pt: 'alteradas', en: 'changed' },
  restartNeeded: { pt: 'só no próximo reinício', en: 'only at the next restart' },
  notInvoiced: { pt: 'Encomendas por faturar', en: 'Orders not invoiced' },
  noneNotInvoiced: { pt: 'Não há encomendas por faturar.', en: 'No order left uninvoiced.' },
  issueChosen: { pt: 'Rever e emitir as escolhidas', en: 'Review and issue the chosen orders' },
  kind: { pt: 'Porquê', en: 'Why' },
  'kind.before-go-live': { pt: 'anterior ao arranque', en: 'before go-live' },
  'kind.other-system': { pt: 'documento de outro sistema', en: "another system's document" },
  notInvoicedHelp: {
    pt: 'Escolha as encomendas a emitir e reveja os documentos antes de confirmar. As anteriores à data de arranque são emitidas como num backfill, as retidas são libertadas e as por corrigir ou paradas por erro são tentadas de novo. As que já têm um documento de outro sistema nunca são emitidas aqui.',
    en: "Choose the orders to issue and review their documents before confirming. Those before go-live are issued as by a backfill, held ones are released, those to be corrected or stopped by an error are tried again. Orders with another system's document are never issued here.",
  },
  webhooksChecked: { pt: 'Webhooks verificados na loja', en: 'Webhooks looked at on the shop' },
  refusedDeliveries: { pt: 'Entregas de webhooks recusadas', en: 'Refused webhook deliveries' },
  noRefusals: { pt: 'Nenhuma entrega recusada.', en: 'No delivery refused.' },
  reason: { pt: 'Motivo', en: 'Reason' },
  count: { pt: 'Quantas', en: 'How many' },
  lastSeen: { pt: 'Última vez', en: 'Last' },
  likelyCause: { pt: 'Causa provável', en: 'Likely cause' },
  companyChecked: { pt: 'token de parceiro verificado como sendo desta empresa', en: "partner token checked to be this company's" },
  companyNotChecked: { pt: 'token de parceiro ainda por verificar (é verificado antes do primeiro documento)', en: 'partner token not checked yet (checked before the first document)' },
  companyOwnToken: { pt: 'token da própria conta', en: "the account's own token" },
  companyUnset: { pt: 'não indicada (invoicing.companyNif)', en: 'not set (invoicing.companyNif)' },
  sweepMissing: {
    pt: 'A sincronização periódica não está agendada (o Redis perdeu-a?). Um worker volta a agendá-la em menos de um minuto; se este aviso se mantiver, nenhum worker está a correr.',
    en: 'The periodic sweep is not scheduled (did Redis lose it?). A worker schedules it again within a minute; if this warning stays, no worker is running.',
  },
  shownOf: { pt: 'A mostrar', en: 'Showing' },
  of: { pt: 'de', en: 'of' },
  nextPage: { pt: 'Seguintes', en: 'Next' },
  previousPage: { pt: 'Anteriores', en: 'Previous' },
  // Queue figures per shop, in an owner's words.
  queueNow: { pt: 'A emitir agora', en: 'Being issued now' },
  queueLater: { pt: 'À espera do número ou de nova tentativa', en: 'Waiting for the number or a new attempt' },
  // The jobs that failed for good: their ledger state's one name (connector/words.ts, failed).
  queueFailed: { pt: 'Paradas por erro', en: 'Stopped by an error' },
  queueFailedHelp: { pt: 'Encomendas paradas por erro', en: 'Orders stopped by an error' },
  retryingTitle: { pt: 'À espera de nova tentativa, e porquê', en: 'Waiting for a new attempt, and why' },
  namesMissing: { pt: 'Nomes dos clientes em falta', en: "Customers' names missing" },
  toInvoice: { pt: 'Por faturar', en: 'To invoice' },
  toInvoiceHelp: {
    pt: 'encomendas pagas ainda sem fatura: a emitir, à espera de nova tentativa, ou vendidas antes do início da faturação',
    en: 'paid orders without an invoice yet: being issued, waiting for a new attempt, or sold before the go-live cut-off',
  },
  shopProblems: { pt: 'Problemas', en: 'Problems' },
  address: { pt: 'Endereço', en: 'Address' },
  // Search.
  search: { pt: 'Procurar', en: 'Search' },
  searchLabel: { pt: 'Encomenda, cliente ou documento', en: 'Order, customer or document' },
  searchHelp: {
    pt: 'Procure pelo número da encomenda (ex.: 5012), pelo número do documento (ex.: FR A/12) ou por dados do cliente: nome, empresa, e-mail, telefone, morada ou um artigo comprado.',
    en: 'Search by order number (e.g. 5012), document number (e.g. FR A/12) or customer details: name, company, e-mail, phone, address or an item bought.',
  },
  searchResults: { pt: 'Resultados da pesquisa', en: 'Search results' },
  searchNone: { pt: 'Nenhuma encomenda encontrada.', en: 'No order found.' },
  searchShopDown: { pt: 'A loja não respondeu, por isso a pesquisa por nome não foi feita', en: 'The shop did not answer, so the search by name was not made' },
  foundBy: { pt: 'Encontrada por', en: 'Found by' },
  'foundBy.number': { pt: 'n.º da encomenda', en: 'order number' },
  'foundBy.document': { pt: 'n.º do documento', en: 'document number' },
  'foundBy.customer': { pt: 'dados do cliente', en: 'customer details' },
  // The order page.
  /** Followed by the platform's name (WooCommerce, Shopify). */
  orderInShop: { pt: 'Abrir a encomenda no', en: 'Open the order in' },
  shopStatus: { pt: 'Estado na loja', en: 'Status on the shop' },
  createdAt: { pt: 'Criada', en: 'Created' },
  shopUnreachable: { pt: 'Não foi possível ler a encomenda na loja', en: 'The order could not be read from the shop' },
  documents: { pt: 'Documentos', en: 'Documents' },
  noDocuments: { pt: 'Ainda não foi emitido nenhum documento para esta encomenda.', en: 'No document issued for this order yet.' },
  corrects: { pt: 'corrige a', en: 'corrects' },
  credited: { pt: 'creditada', en: 'credited' },
  partlyCredited: { pt: 'parcialmente creditada', en: 'partly credited' },
  cancelledInPlace: { pt: 'anulada', en: 'cancelled' },
  inProgress: { pt: 'Em curso', en: 'In progress' },
  actions: { pt: 'O que pode fazer', en: 'What you can do' },
  historyTitle: { pt: 'Histórico', en: 'History' },
  'history.received': { pt: 'Encomenda recebida', en: 'Order received' },
  'history.done': { pt: 'correu bem', en: 'done' },
  'history.failed': { pt: 'falhou', en: 'failed' },
  'history.issued': { pt: 'emitida', en: 'issued' },
  'history.customerNote': { pt: 'Nota para o cliente escrita na encomenda', en: 'Customer note written on the order' },
  'history.privateNote': { pt: 'Nota privada escrita na encomenda', en: 'Private note written on the order' },
  'history.needsAttention': { pt: 'precisa da sua atenção', en: 'needs your attention' },
  noHistory: { pt: 'Ainda não há registos desta encomenda.', en: 'Nothing recorded for this order yet.' },
  unknownOrder: { pt: 'O conector não conhece esta encomenda e a loja não a encontrou.', en: 'The connector does not know this order and the shop did not find it.' },
  // Preview and confirmation.
  previewTitle: { pt: 'Reveja o documento antes de o emitir', en: 'Review the document before it is issued' },
  previewHelp: {
    pt: 'É isto que vai ser emitido na MagniFinance. Um documento certificado não pode ser apagado depois de emitido: só corrigido com uma nota de crédito.',
    en: 'This is what will be issued on MagniFinance. A certified document cannot be deleted once issued: only corrected by a credit note.',
  },
  buyer: { pt: 'Cliente', en: 'Buyer' },
  nif: { pt: 'NIF', en: 'Tax number' },
  consumerNif: { pt: 'consumidor final, sem o NIF do cliente', en: "final consumer, without the buyer's tax number" },
  country: { pt: 'País', en: 'Country' },
  description: { pt: 'Descrição', en: 'Description' },
  quantity: { pt: 'Qtd.', en: 'Qty' },
  unitPrice: { pt: 'Preço unitário s/ IVA', en: 'Unit price excl. VAT' },
  rate: { pt: 'Taxa de IVA', en: 'VAT rate' },
  discount: { pt: 'Desconto', en: 'Discount' },
  exemption: { pt: 'Motivo de isenção', en: 'Exemption code' },
  warnings: { pt: 'Avisos do mapeamento', en: "The mapping's warnings" },
  holds: { pt: 'Porque foi retida', en: 'Why it was held' },
  noWarnings: { pt: 'Sem avisos.', en: 'No warnings.' },
  refused: { pt: 'Este documento não pode ser emitido assim', en: 'This document cannot be issued as it stands' },
  confirmDespiteHold: { pt: 'Ao confirmar, o documento acima é emitido tal como está, apesar do motivo da retenção.', en: 'If you confirm, the document above is issued as it stands, despite the reason it was held.' },
  backToOrder: { pt: 'Voltar à encomenda', en: 'Back to the order' },
  nothingToPreview: { pt: 'Não há nada a emitir para esta encomenda.', en: 'Nothing to issue for this order.' },
  unknownShop: { pt: 'Esta loja não existe no ficheiro de lojas.', en: 'This shop is not in the tenants file.' },
  unknownOrderId: { pt: 'Loja ou encomenda desconhecida: o número de uma encomenda escreve-se só com algarismos.', en: 'Unknown shop or order: an order number is written in digits only.' },
  technicalDetail: { pt: 'Detalhe técnico', en: 'Technical detail' },
  // Redis down.
  redisDownTitle: { pt: 'O Redis do conector não responde', en: "The connector's Redis does not answer" },
  redisDownWhat: {
    pt: 'A consola não consegue ler as encomendas nem os documentos, porque o Redis do conector não responde. Nada se perde: os webhooks que chegarem agora recebem 503 e a sincronização apanha essas encomendas quando o Redis voltar.',
    en: "The console cannot read orders or documents because the connector's Redis does not answer. Nothing is lost: webhooks arriving now get 503 and the sweep catches those orders once Redis is back.",
  },
  redisDownFix: {
    pt: 'O que fazer: verifique se o Redis está a correr e se o endereço redis.url da configuração está certo (por exemplo, redis-cli ping deve responder PONG). Depois recarregue esta página.',
    en: 'What to do: check that Redis is running and that the configured redis.url is right (for example, redis-cli ping must answer PONG). Then reload this page.',
  },
} satisfies Record<string, Record<Lang, string>>;

export type Word = keyof typeof WORDS;

export function t(lang: Lang, word: Word): string {
  return WORDS[word][lang];
}

/** `?lang=` wins, then the cookie set by the language link, then the browser's Accept-Language. */
export function pickLang(query: unknown, cookie: string | undefined, acceptLanguage: string | undefined): Lang {
  if (query === 'pt' || query === 'en') return query;
  const fromCookie = /(?:^|;\s*)lang=(pt|en)\b/.exec(cookie ?? '')?.[1];
  if (fromCookie === 'pt' || fromCookie === 'en') return fromCookie;
  return /^\s*pt\b/i.test(acceptLanguage ?? '') ? 'pt' : 'en';
}

/** A time as the shop sees it: in its time zone and the reader's language (messages/dates.ts). */
export function shopTime(ms: number, timeZone: string, lang: Lang): string {
  return shopDateTime(lang, ms, timeZone);
}

/** Midnight today in the shop's time zone (for "documents issued today"): the shop's calendar day, computed once in law/shop-date.ts. */
export { startOfShopDay } from '../../law/shop-date';
