// The designer's sandbox: everything is computed in the browser by @raspa/core.
import '@raspa/browser-kit/reset.css';
import '@raspa/browser-kit/tokens.css';
import './styles.css';
import { SandboxApp } from './ui/sandbox-app.ts';

const root = document.getElementById('app');
if (root) new SandboxApp(root, location.search);
