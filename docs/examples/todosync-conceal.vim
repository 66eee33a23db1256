" todosync: hide the id comments (<!-- id: … -->) in Markdown files; they stay in the file.
" Vim 8+ and Neovim (works with Neovim's tree-sitter highlighting too: a match, not syntax).
" The cursor's line shows them again in insert mode, so you see what you edit.
" Install: Vim: ~/.vim/plugin/todosync-conceal.vim; Neovim: ~/.config/nvim/plugin/todosync-conceal.vim
augroup todosync_conceal
  autocmd!
  autocmd BufWinEnter,WinNew *.md,*.markdown
        \ if !exists('w:todosync_id_match') |
        \   let w:todosync_id_match = matchadd('Conceal', '\s*<!-- id: \x\{8}-\x\{4}-\x\{4}-\x\{4}-\x\{12} -->', 10, -1, {'conceal': ''}) |
        \ endif |
        \ setlocal conceallevel=2 concealcursor=nc
augroup END
