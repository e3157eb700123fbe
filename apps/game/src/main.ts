// The player's page: read the launch facts (and drop the token from the address bar), then play.
import 'pixi.js/unsafe-eval'; // the page's CSP forbids eval; this build of Pixi's shader code needs none
import '@raspa/browser-kit/reset.css';
import './ui/styles.css';
import { GameApp } from './app/game-app.ts';
import { readLaunch } from './boot/launch.ts';
import { defaultConfig } from './config.ts';

performance.mark('raspa:boot');
const launch = readLaunch(window);
const root = document.getElementById('ui');
if (root) new GameApp(launch, defaultConfig, root).start();
