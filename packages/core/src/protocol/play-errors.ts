/**
 * Every way a play request can fail, with the sentence the player's page shows in each language.
 * Shared by the server (which answers with the code) and the page (which shows the text).
 */
export const PLAY_ERRORS = {
  INSUFFICIENT_FUNDS: {
    en: 'Not enough balance for this card.',
    pt: 'Saldo insuficiente para esta raspadinha.',
    es: 'Saldo insuficiente para esta tarjeta.',
  },
  WALLET_DECLINED: {
    en: 'Your operator declined this purchase.',
    pt: 'Seu operador recusou esta compra.',
    es: 'Tu operador rechazó esta compra.',
  },
  WALLET_UNAVAILABLE: {
    en: 'We could not reach your wallet. Nothing was charged; please try again.',
    pt: 'Não conseguimos falar com sua carteira. Nada foi cobrado; tente de novo.',
    es: 'No pudimos contactar tu billetera. No se cobró nada; inténtalo de nuevo.',
  },
  ROUND_IN_PROGRESS: {
    en: 'You already have a card in play. Finish it first.',
    pt: 'Você já tem uma raspadinha em jogo. Termine-a primeiro.',
    es: 'Ya tienes una tarjeta en juego. Termínala primero.',
  },
  ROUND_NOT_FOUND: {
    en: 'This card is no longer in play.',
    pt: 'Esta raspadinha não está mais em jogo.',
    es: 'Esta tarjeta ya no está en juego.',
  },
  GAME_INACTIVE: {
    en: 'This game is not available right now.',
    pt: 'Este jogo não está disponível agora.',
    es: 'Este juego no está disponible ahora.',
  },
  SESSION_EXPIRED: {
    en: 'Your session has expired. Reopen the game from your operator’s site.',
    pt: 'Sua sessão expirou. Abra o jogo de novo pelo site do seu operador.',
    es: 'Tu sesión ha caducado. Vuelve a abrir el juego desde el sitio de tu operador.',
  },
  SERVICE_STOPPING: {
    en: 'The game is restarting. Please try again in a moment.',
    pt: 'O jogo está reiniciando. Tente de novo em instantes.',
    es: 'El juego se está reiniciando. Inténtalo de nuevo en un momento.',
  },
  // Player protection (CONTRACT §13). The server's message for LIMIT_REACHED also names the limit and
  // when it resets (buyRefusalMessage); these are the sentences without the details.
  LIMIT_REACHED: {
    en: 'This card would take you past a limit on your play. Nothing was charged.',
    pt: 'Esta raspadinha passaria de um limite do seu jogo. Nada foi cobrado.',
    es: 'Esta tarjeta superaría un límite de tu juego. No se cobró nada.',
  },
  SESSION_TIME_LIMIT: {
    en: 'You have reached the time limit of this session. Nothing was charged.',
    pt: 'Você atingiu o limite de tempo desta sessão. Nada foi cobrado.',
    es: 'Has alcanzado el límite de tiempo de esta sesión. No se cobró nada.',
  },
  REALITY_CHECK: {
    en: 'Time for a pause: look at your session before you keep playing.',
    pt: 'Hora de uma pausa: veja sua sessão antes de continuar jogando.',
    es: 'Momento de una pausa: mira tu sesión antes de seguir jugando.',
  },
  PLAYER_EXCLUDED: {
    en: 'Your account is excluded from play. Nothing was charged.',
    pt: 'Sua conta está excluída do jogo. Nada foi cobrado.',
    es: 'Tu cuenta está excluida del juego. No se cobró nada.',
  },
  // An operator ended the session (DELETE /v1/game/session/{sessionId}); an exclusion ends them with
  // PLAYER_EXCLUDED. Pushed as `session-ended` before the socket is closed, and the answer to any later
  // request or connection with that session.
  SESSION_ENDED: {
    en: 'This game session was ended by your operator. Reopen the game from your operator’s site.',
    pt: 'Esta sessão de jogo foi encerrada pelo seu operador. Abra o jogo de novo pelo site do seu operador.',
    es: 'Tu operador cerró esta sesión de juego. Vuelve a abrir el juego desde el sitio de tu operador.',
  },
  BUY_TOO_SOON: {
    en: 'Please wait a moment before the next card.',
    pt: 'Aguarde um instante antes da próxima raspadinha.',
    es: 'Espera un momento antes de la próxima tarjeta.',
  },
  INVALID_REQUEST: {
    en: 'The game sent a request we could not read. Please reload.',
    pt: 'O jogo enviou um pedido que não entendemos. Recarregue a página.',
    es: 'El juego envió una solicitud que no entendimos. Recarga la página.',
  },
  INTERNAL_ERROR: {
    en: 'Something went wrong on our side. Your money is safe; please try again.',
    pt: 'Algo deu errado do nosso lado. Seu dinheiro está seguro; tente de novo.',
    es: 'Algo salió mal de nuestro lado. Tu dinero está seguro; inténtalo de nuevo.',
  },
} as const satisfies Record<string, Record<'en' | 'pt' | 'es', string>>;

export type PlayErrorCode = keyof typeof PLAY_ERRORS;
export const PLAY_ERROR_CODES = Object.keys(PLAY_ERRORS) as PlayErrorCode[];
export type PlayLang = 'pt' | 'en' | 'es';

/** A session's language as the play speaks it: pt and es as they are, anything else English. */
export const playLangOf = (lang: string): PlayLang => (lang === 'pt' || lang === 'es' ? lang : 'en');

export function playErrorMessage(code: PlayErrorCode, lang: PlayLang): string {
  return PLAY_ERRORS[code][lang];
}

/** The locale each play language formats money and dates in (the page's choice, apps/game i18n). */
export const PLAY_LOCALES: Readonly<Record<PlayLang, string>> = { pt: 'pt-BR', en: 'en-US', es: 'es-ES' };
