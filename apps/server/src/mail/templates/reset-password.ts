import type { MailMessage } from '../mailer.ts';

export type MailLang = 'pt' | 'en' | 'es';

interface ResetWords {
  subject: string;
  greeting: (name: string) => string;
  intro: string;
  action: string;
  expiry: (minutes: number) => string;
  fallback: string;
  ignore: string;
}

const WORDS: Record<MailLang, ResetWords> = {
  en: {
    subject: 'Reset your Raspa password',
    greeting: (name) => `Hello ${name},`,
    intro: 'We received a request to reset the password of your Raspa panel account.',
    action: 'Choose a new password',
    expiry: (minutes) => `The link works once and expires in ${minutes} minutes.`,
    fallback: 'If the button does not work, copy this address into your browser:',
    ignore: 'If you did not ask for this, ignore this e-mail: your password stays as it is.',
  },
  pt: {
    subject: 'Redefina sua senha do Raspa',
    greeting: (name) => `Olá, ${name},`,
    intro: 'Recebemos um pedido para redefinir a senha da sua conta do painel Raspa.',
    action: 'Escolher uma nova senha',
    expiry: (minutes) => `O link só pode ser usado uma vez e expira em ${minutes} minutos.`,
    fallback: 'Se o botão não funcionar, copie este endereço no seu navegador:',
    ignore: 'Se você não fez este pedido, ignore este e-mail: sua senha continua a mesma.',
  },
  es: {
    subject: 'Restablece tu contraseña de Raspa',
    greeting: (name) => `Hola, ${name}:`,
    intro: 'Recibimos una solicitud para restablecer la contraseña de tu cuenta del panel de Raspa.',
    action: 'Elegir una nueva contraseña',
    expiry: (minutes) => `El enlace solo se puede usar una vez y caduca en ${minutes} minutos.`,
    fallback: 'Si el botón no funciona, copia esta dirección en tu navegador:',
    ignore: 'Si no lo solicitaste, ignora este correo: tu contraseña no cambia.',
  },
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The password-reset e-mail: HTML with inline styles and no external images, plus a text part. */
export function resetPasswordEmail(input: {
  to: string;
  lang: MailLang;
  name: string;
  link: string;
  minutes: number;
}): MailMessage {
  const words = WORDS[input.lang];
  const [greeting, link] = [escapeHtml(words.greeting(input.name)), escapeHtml(input.link)];
  const paragraph = (text: string) => `<p style="margin:0 0 16px;line-height:1.5">${text}</p>`;
  const html = `<!doctype html>
<html lang="${input.lang}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(words.subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f1ea;font-family:Arial,Helvetica,sans-serif;color:#1f2a44">
<div style="max-width:520px;margin:0 auto;padding:24px;background:#ffffff;border-radius:8px">
${paragraph(greeting)}
${paragraph(escapeHtml(words.intro))}
<p style="margin:24px 0;text-align:center"><a href="${link}" style="display:inline-block;padding:12px 20px;background:#1f2a44;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:bold">${escapeHtml(words.action)}</a></p>
${paragraph(escapeHtml(words.expiry(input.minutes)))}
${paragraph(`${escapeHtml(words.fallback)}<br><a href="${link}" style="color:#1f2a44;word-break:break-all">${link}</a>`)}
${paragraph(`<small>${escapeHtml(words.ignore)}</small>`)}
</div>
</body>
</html>
`;
  const text = [
    words.greeting(input.name),
    '',
    words.intro,
    '',
    `${words.action}: ${input.link}`,
    '',
    words.expiry(input.minutes),
    '',
    words.ignore,
    '',
  ].join('\n');
  return { to: input.to, subject: words.subject, html, text };
}
