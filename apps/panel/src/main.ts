// The back office: plain TypeScript over the /v1 API, served by the service at /panel.
import './styles.css';
import { PanelApp } from './app.ts';

const root = document.getElementById('app');
if (root) new PanelApp(root);
