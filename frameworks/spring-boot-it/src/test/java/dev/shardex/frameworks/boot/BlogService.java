package dev.shardex.frameworks.boot;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** The application's service layer: each method one transaction, as Spring's documentation writes them. */
@Service
public class BlogService {
  private final AuthorRepository authors;
  private final PostRepository posts;
  private final CountryRepository countries;

  public BlogService(AuthorRepository authors, PostRepository posts, CountryRepository countries) {
    this.authors = authors;
    this.posts = posts;
    this.countries = countries;
  }

  /** A GLOBAL read (the country must exist), then a SHARDED write, in one transaction. */
  @Transactional
  public Author register(long userId, String name, String countryCode) {
    Country country = countries.findById(countryCode)
        .orElseThrow(() -> new IllegalArgumentException("no country " + countryCode));
    return authors.save(new Author(userId, name, country.getCode()));
  }

  /** A SHARDED write through a composite id (Spring Data merges: it loads the id first). */
  @Transactional
  public Post publish(long userId, long postId, String title) {
    return posts.save(new Post(userId, postId, title));
  }

  /** A write to a GLOBAL table in a transaction. */
  @Transactional
  public Country addCountry(String code, String name) {
    return countries.save(new Country(code, name));
  }
}
