export { CHROMIUM_FLAGS, CHROMIUM_PATH, chromiumAvailable, launchChromium } from './chromium';
