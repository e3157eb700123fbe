// Signs "Try it out" requests like an integrator would (docs/contract.md §2), with WebCrypto.
(() => {
  const input = document.getElementById('signature-token');
  input.value = sessionStorage.getItem('raspa.signatureToken') ?? '';
  input.addEventListener('input', () => sessionStorage.setItem('raspa.signatureToken', input.value.trim()));

  // Keys sorted by UTF-16 code unit (the default string sort), no whitespace.
  const canonical = (value) => {
    if (value === null || typeof value !== 'object') return JSON.stringify(value);
    if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
    const keys = Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(',')}}`;
  };

  const hmacHex = async (token, text) => {
    const encoder = new TextEncoder();
    const key = await crypto.subtle.importKey(
      'raw',
      encoder.encode(token),
      { name: 'HMAC', hash: 'SHA-512' },
      false,
      ['sign'],
    );
    const mac = await crypto.subtle.sign('HMAC', key, encoder.encode(text));
    return [...new Uint8Array(mac)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  };

  window.ui = SwaggerUIBundle({
    url: '/v1/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    persistAuthorization: true,
    requestInterceptor: async (request) => {
      const token = input.value.trim();
      const path = new URL(request.url, location.href).pathname;
      const writes = request.method === 'POST' || request.method === 'PUT';
      if (!token || !writes || !path.startsWith('/v1/') || path.startsWith('/v1/auth/')) return request;
      let body;
      try {
        body = request.body ? JSON.parse(request.body) : {};
      } catch {
        return request; // not JSON: the server will say so
      }
      request.headers['x-signed-request'] = await hmacHex(token, canonical(body));
      return request;
    },
  });
})();
