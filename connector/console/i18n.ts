import type { Lang } from '../words';

/** The console's words in Portuguese and English. One table: a missing word is a type error. */
const WORDS = {
  title: { pt: 'Consola do conector MagniFinance', en: 'MagniFinance connector console' },
  shops: { pt: 'Lojas', en: 'Shops' },
  shop: { pt: 'Loja', en: 'Shop' },
  waiting: { pt: 'À espera de uma pessoa', en: 'Waiting for a person' },
  noneWaiting: { pt: 'Nenhuma encomenda à espera. Tudo em dia.', en: 'No order is waiting. All caught up.' },
  recent: { pt: 'Documentos recentes', en: 'Recent documents' },
  noneRecent: { pt: 'Ainda não há documentos.', en: 'No documents yet.' },
  today: { pt: 'Hoje', en: 'Today' },
  issuedToday: { pt: 'Documentos emitidos hoje', en: 'Documents issued today' },
  queue: { pt: 'Fila', en: 'Queue' },
  health: { pt: 'Sincronização e webhooks', en: 'Sweep and webhooks' },
  order: { pt: 'Encomenda', en: 'Order' },
  document: { pt: 'Documento', en: 'Document' },
  number: { pt: 'Número', en: 'Number' },
  total: { pt: 'Total', en: 'Total' },
  when: { pt: 'Quando', en: 'When' },
  why: { pt: 'Porquê', en: 'Why' },
  whatToDo: { pt: 'O que fazer', en: 'What to do' },
  state: { pt: 'Estado', en: 'State' },
  pdf: { pt: 'PDF', en: 'PDF' },
  retry: { pt: 'Tentar agora', en: 'Retry now' },
  attach: { pt: 'Associar documento', en: 'Attach document' },
  documentId: { pt: 'Id do documento', en: 'Document id' },
  issueNow: { pt: 'Emitir mesmo assim', en: 'Issue now' },
  dismiss: { pt: 'Marcar como tratada', en: 'Mark as handled' },
  dismissReason: { pt: 'Como foi tratada (ex.: fatura FT A/12 emitida à mão)', en: 'How it was handled (e.g. invoice FT A/12 issued by hand)' },
  sweepNow: { pt: 'Sincronizar agora', en: 'Sweep now' },
  lastSweep: { pt: 'Última sincronização', en: 'Last sweep' },
  never: { pt: 'nunca', en: 'never' },
  scanned: { pt: 'encomendas vistas', en: 'orders scanned' },
  enqueued: { pt: 'em fila', en: 'enqueued' },
  resumed: { pt: 'retomadas', en: 'resumed' },
  webhooksOk: { pt: 'Webhooks de encomendas ativos.', en: 'Order webhooks are active.' },
  webhooksInactive: {
    pt: 'Webhooks inativos na loja: reative-os em WooCommerce → Definições → Avançado → Webhooks.',
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
  waitingJobs: { pt: 'em espera', en: 'waiting' },
  delayedJobs: { pt: 'agendados', en: 'delayed' },
  failedJobs: { pt: 'falhados', en: 'failed' },
  company: { pt: 'Empresa', en: 'Company' },
  configuration: { pt: 'Configuração', en: 'Configuration' },
  reload: { pt: 'Recarregar o ficheiro de lojas', en: 'Reload the tenants file' },
  reloaded: { pt: 'Ficheiro de lojas recarregado', en: 'Tenants file reloaded' },
  notReloaded: { pt: 'Ficheiro de lojas NÃO recarregado: tem erros; a configuração em uso continua', en: 'Tenants file NOT reloaded: it has mistakes; the running configuration stays' },
  neverReloaded: { pt: 'ainda não recarregado desde o arranque', en: 'not reloaded since the start' },
  added: { pt: 'acrescentadas', en: 'added' },
  removed: { pt: 'retiradas', en: 'removed' },
  changed: { pt: 'alteradas', en: 'changed' },
  restartNeeded: { pt: 'só no próximo reinício', en: 'only at the next restart' },
  notInvoiced: { pt: 'Encomendas não faturadas', en: 'Orders not invoiced' },
  noneNotInvoiced: { pt: 'Nenhuma encomenda por faturar.', en: 'No order left uninvoiced.' },
  issueChosen: { pt: 'Emitir as escolhidas', en: 'Issue the chosen orders' },
  kind: { pt: 'Porquê', en: 'Why' },
  'kind.before-go-live': { pt: 'antes da entrada em funcionamento', en: 'before go-live' },
  'kind.other-system': { pt: 'documento de outro sistema', en: "another system's document" },
  'kind.held': { pt: 'retida', en: 'held' },
  'kind.refused': { pt: 'recusada', en: 'refused' },
  notInvoicedHelp: {
    pt: 'Escolha as encomendas a emitir: as anteriores à entrada em funcionamento são emitidas como num backfill, as retidas são libertadas, as recusadas tentadas de novo. As que têm documento de outro sistema nunca são emitidas aqui.',
    en: "Choose the orders to issue: those before go-live are issued as by a backfill, held ones are released, refused ones retried. Orders with another system's document are never issued here.",
  },
  webhooksChecked: { pt: 'Webhooks vistos na loja', en: 'Webhooks looked at on the shop' },
  refusedDeliveries: { pt: 'Entregas recusadas', en: 'Refused deliveries' },
  noRefusals: { pt: 'Nenhuma entrega recusada.', en: 'No delivery refused.' },
  reason: { pt: 'Motivo', en: 'Reason' },
  count: { pt: 'Quantas', en: 'How many' },
  lastSeen: { pt: 'Última', en: 'Last' },
  likelyCause: { pt: 'Causa provável', en: 'Likely cause' },
  companyChecked: { pt: 'token de parceiro verificado como desta empresa', en: "partner token checked to be this company's" },
  companyNotChecked: { pt: 'token de parceiro ainda por verificar (verificado antes do primeiro documento)', en: 'partner token not checked yet (checked before the first document)' },
  companyOwnToken: { pt: 'token da própria conta', en: "the account's own token" },
  companyUnset: { pt: 'não indicada (invoicing.companyNif)', en: 'not set (invoicing.companyNif)' },
  sweepMissing: {
    pt: 'A sincronização periódica não está agendada (o Redis perdeu-a?). Um worker volta a agendá-la em menos de um minuto; se este aviso ficar, nenhum worker está a correr.',
    en: 'The periodic sweep is not scheduled (did Redis lose it?). A worker schedules it again within a minute; if this warning stays, no worker is running.',
  },
  shownOf: { pt: 'a mostrar', en: 'showing' },
  of: { pt: 'de', en: 'of' },
  nextPage: { pt: 'Seguintes', en: 'Next' },
  previousPage: { pt: 'Anteriores', en: 'Previous' },
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

/** A time as the shop sees it: in its time zone and the reader's language. */
export function shopTime(ms: number, timeZone: string, lang: Lang): string {
  return new Intl.DateTimeFormat(lang === 'pt' ? 'pt-PT' : 'en-GB', { timeZone, dateStyle: 'short', timeStyle: 'short' }).format(ms);
}

/** Midnight today in the shop's time zone, as epoch ms (for "documents issued today"). */
export function startOfShopDay(now: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).formatToParts(now);
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value);
  const sinceMidnight = ((get('hour') * 60 + get('minute')) * 60 + get('second')) * 1000 + (now % 1000);
  return now - sinceMidnight;
}
