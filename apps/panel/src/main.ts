// The back office: plain TypeScript over the /v1 API, served by the service at /panel.
import '@raspa/browser-kit/reset.css';
import '@raspa/browser-kit/tokens.css';
import './styles.css';
import { PanelApp } from './app.ts';

const root = document.getElementById('app');
if (root) new PanelApp(root);
