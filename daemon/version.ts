export { VERSION } from '../contract/version.js';
