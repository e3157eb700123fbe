// The replay page: a played round drawn read-only for customer support (see replay-page.ts).
import 'pixi.js/unsafe-eval'; // the page's CSP forbids eval; this build of Pixi's shader code needs none
import './replay.css';
import { ReplayPage, takeToken } from './replay-page.ts';

const root = document.getElementById('replay');
if (root) void new ReplayPage(root, document.documentElement).show(takeToken(window));
