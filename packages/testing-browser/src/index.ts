export {
  type AxeViolation,
  BLOCKING_IMPACTS,
  PAGE_WIDTHS,
  SCREENSHOT_DIR,
  saveScreenshot,
  seriousAxeViolations,
} from './accessibility';
export { CHROMIUM_FLAGS, CHROMIUM_PATH, chromiumAvailable, launchChromium } from './chromium';
