// @politely/sitemap: built out by its own issue; the package builds and is wired into the workspace now.
export {};
