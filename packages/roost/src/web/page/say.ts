/** How the page tells the person how an action went (the notice line under its header). */
export type Say = (text: string, tone?: "ok" | "warn" | "error") => void;
