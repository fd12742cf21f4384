# Seed for the corpus's Redmine (run once by ho11_redmine_setup.py with `rails runner`, after the
# migrations and Redmine's default data): throwaway accounts, two public projects and one private one,
# enough issues that the issue lists page (25 a page), news with comments, a few wiki pages.
# Deterministic: no random numbers, fixed dates relative to a fixed day.

base_day = Date.new(2026, 11, 2)

# no mail: notifications would be sent from a background thread that fights this script for the
# SQLite write lock ("database is locked"); the instance keeps them off too
ActiveJob::Base.queue_adapter = :inline
ActionMailer::Base.perform_deliveries = false
Setting.notified_events = []

admin = User.find_by_login('admin')
admin.password = admin.password_confirmation = 'corpus-admin-pw'
admin.must_change_passwd = false
admin.save!

def make_user(login, first, last)
  u = User.new(firstname: first, lastname: last, mail: "#{login}@corpus.test", language: 'en')
  u.login = login
  u.password = u.password_confirmation = "corpus-#{login}-pw"
  u.status = User::STATUS_ACTIVE
  u.save!
  u
end

alice = make_user('alice', 'Alice', 'Archer')
bob = make_user('bob', 'Bob', 'Baker')
carol = make_user('carol', 'Carol', 'Cooper')
dave = make_user('dave', 'Dave', 'Dalton')

manager = Role.find_by_name('Manager')
developer = Role.find_by_name('Developer')
reporter = Role.find_by_name('Reporter')
Role.anonymous.add_permission!(:view_issues, :view_news, :view_wiki_pages, :comment_news)

modules = %w(issue_tracking news wiki time_tracking)
website = Project.create!(name: 'Website', identifier: 'website', is_public: true,
                          description: 'The public website: pages, blog and the shop front.',
                          homepage: 'https://www.example.org', enabled_module_names: modules)
mobile = Project.create!(name: 'Mobile app', identifier: 'mobile', is_public: true,
                         description: 'Android and iOS clients.',
                         homepage: 'https://app.example.org', enabled_module_names: modules)
internal = Project.create!(name: 'Internal tools', identifier: 'internal', is_public: false,
                           description: 'Scripts and dashboards for the team only.',
                           homepage: 'https://intranet.example.org', enabled_module_names: modules)
trackers = Tracker.order(:position).to_a
[website, mobile, internal].each { |p| p.trackers = trackers; p.save! }

[[website, alice, manager], [website, bob, developer], [website, carol, reporter],
 [mobile, alice, developer], [mobile, dave, manager], [mobile, bob, developer],
 [internal, alice, manager], [internal, dave, developer]].each do |project, user, role|
  Member.create!(project: project, principal: user, roles: [role])
end

v1 = Version.create!(project: website, name: '2.4', effective_date: base_day + 20)
v2 = Version.create!(project: website, name: '2.5', effective_date: base_day + 60)
Version.create!(project: mobile, name: '1.0', effective_date: base_day + 30)

statuses = IssueStatus.order(:position).to_a
open_statuses = statuses.reject(&:is_closed)
closed = statuses.find(&:is_closed)
priorities = IssuePriority.order(:position).to_a
normal = priorities.find { |p| p.name == 'Normal' } || priorities.first

topics = ['Checkout button misaligned on small screens', 'Search ignores accents',
          'Add dark mode', 'Newsletter signup fails for plus addresses', 'Slow product page',
          'Broken link in footer', 'Translate shipping page', 'Export orders as CSV',
          'Cart badge shows stale count', 'Password reset mail has wrong logo',
          'Blog pagination jumps to top', 'Improve image compression', 'Cookie banner overlaps menu']

def make_issue(project, tracker, author, subject, attrs)
  issue = Issue.new(project: project, tracker: tracker, author: author, subject: subject)
  attrs.each { |k, v| issue.send("#{k}=", v) }
  issue.save!
  issue
end

User.current = alice
people = { website => [alice, bob, carol], mobile => [alice, dave, bob], internal => [alice, dave] }
counts = { website => 62, mobile => 18, internal => 27 }
n = 0
[website, mobile, internal].each do |project|
  counts[project].times do |i|
    n += 1
    who = people[project]
    subject = "#{topics[n % topics.size]} (#{project.identifier} ##{i + 1})"
    if project == website && i == 58
      # pasted from a browser console into the subject, markup and all
      subject = 'Console shows <script>alert("redmine-subject")</script> on load'
    end
    status = (i % 7 == 6) ? closed : open_statuses[i % open_statuses.size]
    attrs = {
      description: "Steps to reproduce:\n\n# open the page\n# look at item #{i + 1}\n\nSeen on #{project.name}.",
      priority: priorities[(i * 3) % priorities.size] || normal,
      status: status,
      start_date: base_day - (i % 20),
      estimated_hours: (i % 4 == 0) ? nil : (i % 9) + 0.5,
      done_ratio: (i * 10) % 100,
    }
    attrs[:assigned_to] = who[i % who.size] unless i % 5 == 3
    attrs[:due_date] = base_day + 10 + (i % 30) unless i % 4 == 1
    attrs[:fixed_version] = (i.even? ? v1 : v2) if project == website && i % 3 == 0
    issue = make_issue(project, trackers[i % trackers.size], who[(i + 1) % who.size], subject, attrs)
    if i % 4 == 0
      issue = Issue.find(issue.id)
      issue.init_journal(who[(i + 2) % who.size], "Looked into it: item #{i + 1} is reproducible.")
      issue.save!
    end
  end
end

[[website, 'Website 2.4 released', 'New checkout and faster search.'],
 [website, 'Maintenance window on Saturday', 'The shop is read-only for two hours.'],
 [website, 'New design preview', 'The new header and footer are on staging.'],
 [mobile, 'Beta testers wanted', 'Sign up to test the Android beta.'],
 [internal, 'Dashboard moved', 'The metrics dashboard has a new address.']].each_with_index do |(project, title, summary), k|
  news = News.create!(project: project, author: alice, title: title, summary: summary,
                      description: "#{summary}\n\nDetails follow in the wiki.")
  (k + 2).times do |c|
    Comment.create!(commented: news, author: [bob, carol, dave][c % 3], content: "Comment #{c + 1} on #{title.downcase}.")
  end
end

[website, mobile, internal].each do |project|
  wiki = project.wiki || Wiki.create!(project: project, start_page: 'Wiki')
  %w(Wiki Deployment Style_guide).each do |title|
    page = WikiPage.new(wiki: wiki, title: title)
    page.content = WikiContent.new(text: "h1. #{title.tr('_', ' ')}\n\nNotes for #{project.name}.", author: alice)
    page.save!
  end
end

puts "seeded: #{Issue.count} issues, #{News.count} news, #{User.count} users"
