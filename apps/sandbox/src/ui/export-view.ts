import { el, saveFile, uid } from '@raspa/browser-kit';
import { canonicalJson, gameCreateData, type Ladder, signBodyWebCrypto } from '@raspa/core';
import type { Lang, SandboxConfig } from '../config/sandbox-config.ts';
import {
  curlCommand,
  DEFAULT_SERVICE_URL,
  type GameCreateBody,
  gameCreateBody,
  importGameBody,
  PROFILE_ID_PLACEHOLDER,
} from '../export/game-body.ts';
import { parSheetFiles } from '../export/par-sheet-files.ts';
import { copyText } from './copy-text.ts';

/**
 * The configuration as the `POST /v1/game` body, a ready curl line with the signing step, the
 * answer the service gives, and an import box. Tokens pasted here stay in memory: never in the URL.
 */
export class ExportView {
  readonly root: HTMLElement;
  private readonly body = el('pre', { class: 'code', 'data-export': 'body', tabindex: 0 });
  private readonly curl = el('pre', { class: 'code', 'data-export': 'curl', tabindex: 0 });
  private readonly answer = el('pre', { class: 'code', 'data-export': 'answer', tabindex: 0 });
  private readonly signature = el('p', { class: 'hint mono', 'data-export': 'signature' });
  private readonly profileId = input('text', 'profileId', PROFILE_ID_PLACEHOLDER);
  private readonly simulation = el('input', { type: 'checkbox', name: 'simulation', checked: true });
  private readonly serviceUrl = input('url', 'serviceUrl', DEFAULT_SERVICE_URL);
  private readonly signatureToken = input('password', 'signatureToken', 'paste to sign here');
  private readonly accessToken = input('password', 'accessToken', 'optional');
  private readonly importBox = el('textarea', {
    rows: 4,
    spellcheck: 'false',
    'data-import': '',
    placeholder: 'Paste a POST /v1/game body, or a game from GET /v1/game',
    'aria-label': 'Body to import',
  });
  private readonly importMessage = el('p', { class: 'problem', role: 'alert', hidden: true });
  private readonly parSheetJson = el('button', { type: 'button', 'data-action': 'par-sheet-json' }, [
    'Download the PAR sheet (JSON)',
  ]);
  private readonly parSheetCsv = el('button', { type: 'button', 'data-action': 'par-sheet-csv' }, [
    'Download the PAR sheet (CSV)',
  ]);
  private ladder: Ladder | null = null;
  private lang: Lang = 'pt';
  private current: GameCreateBody | null = null;
  private signing = 0;

  constructor(
    private readonly getConfig: () => SandboxConfig,
    private readonly onImport: (config: SandboxConfig) => void,
  ) {
    this.serviceUrl.value = DEFAULT_SERVICE_URL;
    const copyBody = el('button', { type: 'button', 'data-action': 'copy-body' }, ['Copy body']);
    copyBody.addEventListener('click', () => void copyText(copyBody, this.body.textContent ?? ''));
    const copyCurl = el('button', { type: 'button', 'data-action': 'copy-curl' }, ['Copy curl']);
    copyCurl.addEventListener('click', () => void copyText(copyCurl, this.curl.textContent ?? ''));
    const load = el('button', { type: 'button', 'data-action': 'import' }, ['Import']);
    load.addEventListener('click', () => this.import());
    this.parSheetJson.addEventListener('click', () => this.saveParSheet('json'));
    this.parSheetCsv.addEventListener('click', () => this.saveParSheet('csv'));
    for (const each of [
      this.profileId,
      this.simulation,
      this.serviceUrl,
      this.signatureToken,
      this.accessToken,
    ]) {
      each.addEventListener('input', () => this.render());
    }
    this.root = el('section', { class: 'export', 'aria-label': 'Export for the API' }, [
      el('h3', {}, ['Export for the API: POST /v1/game']),
      el('div', { class: 'field-row' }, [
        labelled('profileId', this.profileId),
        el('label', { class: 'check' }, [this.simulation, ' simulation: compute the ladder, store nothing']),
      ]),
      this.body,
      el('div', { class: 'actions' }, [copyBody]),
      el('h4', {}, ['Send it']),
      el('ol', { class: 'steps' }, [
        el('li', {}, [
          'Log in: ',
          el('code', {}, ['POST /v1/auth/login {"apiKey": "…"}']),
          ' gives an ',
          el('code', {}, ['accessToken']),
          ' and a ',
          el('code', {}, ['signatureToken']),
          '.',
        ]),
        el('li', {}, [
          'Sign the body: ',
          el('code', {}, ['x-signed-request']),
          ' is the lowercase hex HMAC-SHA512 of the body’s canonical JSON (keys sorted, no spaces: ',
          el('code', {}, ['$BODY']),
          ' below), keyed with the signatureToken. Paste the token here and the page signs with WebCrypto; it never leaves this page.',
        ]),
        el('li', {}, [
          'Send it with the bearer accessToken: the service answers with the ladder shown here.',
        ]),
      ]),
      el('div', { class: 'field-row' }, [
        labelled('Service URL', this.serviceUrl),
        labelled('signatureToken', this.signatureToken),
        labelled('accessToken', this.accessToken),
      ]),
      this.curl,
      this.signature,
      el('div', { class: 'actions' }, [copyCurl]),
      el('h4', {}, ['The answer, for a simulation']),
      this.answer,
      el('h4', {}, ['The PAR sheet']),
      el('p', { class: 'hint' }, [
        'The model’s maths on one sheet for a test lab: as the service answers ',
        el('code', {}, ['GET /v1/game/{id}/par-sheet']),
        ' for a version of it, with no gameId or version yet.',
      ]),
      el('div', { class: 'actions' }, [this.parSheetJson, this.parSheetCsv]),
      el('h4', {}, ['Import a configuration']),
      this.importBox,
      this.importMessage,
      el('div', { class: 'actions' }, [load]),
    ]);
  }

  set(ladder: Ladder | null, lang: Lang): void {
    this.ladder = ladder;
    this.lang = lang;
    this.render();
  }

  /** The body as exported right now (null while the inputs break a rule). */
  get exported(): GameCreateBody | null {
    return this.current;
  }

  private render(): void {
    const ladder = this.ladder;
    this.root.classList.toggle('stale', ladder === null);
    this.parSheetJson.disabled = ladder === null;
    this.parSheetCsv.disabled = ladder === null;
    if (!ladder) {
      this.current = null;
      return;
    }
    const body = gameCreateBody(ladder, this.lang, {
      profileId: this.profileId.value.trim() || PROFILE_ID_PLACEHOLDER,
      simulation: this.simulation.checked,
    });
    this.current = body;
    this.body.textContent = JSON.stringify(body, null, 2);
    this.answer.textContent = JSON.stringify(
      { status: 'success', data: gameCreateData(ladder, { id: null, version: null, active: false }) },
      null,
      2,
    );
    const token = this.signatureToken.value.trim();
    const parts = {
      serviceUrl: this.serviceUrl.value.trim() || DEFAULT_SERVICE_URL,
      body,
      ...(this.accessToken.value.trim() ? { accessToken: this.accessToken.value.trim() } : {}),
    };
    this.curl.textContent = curlCommand(parts);
    this.signature.textContent = token
      ? 'Signing…'
      : `Without a token here, openssl signs in the shell: set ACCESS_TOKEN and SIGNATURE_TOKEN first. Canonical body: ${canonicalJson(body).length} bytes.`;
    delete this.signature.dataset.signature;
    if (!token) return;
    const turn = ++this.signing;
    void signBodyWebCrypto(body, token).then((signature) => {
      if (turn !== this.signing) return;
      this.curl.textContent = curlCommand({ ...parts, signature });
      this.signature.textContent = `x-signed-request: ${signature}`;
      this.signature.dataset.signature = signature;
    });
  }

  /** The ladder shown's PAR sheet to the browser's downloads. */
  private saveParSheet(kind: 'json' | 'csv'): void {
    if (!this.ladder) return;
    const file = parSheetFiles(this.ladder)[kind];
    saveFile(file.name, file.text, file.type);
  }

  private import(): void {
    const result = importGameBody(this.importBox.value, this.getConfig());
    this.importMessage.hidden = result.ok;
    if (!result.ok) {
      this.importMessage.textContent = `Cannot import: ${result.messages.join('; ')}.`;
      return;
    }
    this.importBox.value = '';
    this.onImport(result.config);
  }
}

function input(type: string, name: string, placeholder: string): HTMLInputElement {
  return el('input', { type, name, placeholder, spellcheck: 'false', autocomplete: 'off' });
}

function labelled(text: string, control: HTMLInputElement): HTMLElement {
  const id = uid(control.name);
  control.id = id;
  return el('div', { class: 'field' }, [el('label', { for: id }, [text]), control]);
}
