/** The dashboard's entry point (bundled by src/dashboard/bundle.ts). */
import { render } from 'preact';
import { App } from './components/App';

const root = document.getElementById('app')!;
// The page's static "Loading…" placeholder goes: render adds to what the element holds.
root.textContent = '';
render(<App />, root);
